/** Bearer MEDIAGEN_ADMIN_TOKEN for /admin/v1 (compared in constant time). Off when the token is unset. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { sendError } from '../errors.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function adminAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m) return sendError(res, 'UNAUTHORIZED', 'send "Authorization: Bearer <MEDIAGEN_ADMIN_TOKEN>"');
    if (!timingSafeEqual(digest(m[1]!), expected))
      return sendError(res, 'UNAUTHORIZED', 'invalid admin token');
    next();
  };
}
