/**
 * Authentication (spec 5) and the per-key rate limit (spec 7, 429), in one database round trip
 * (the SQL function mediagen_authenticate): missing or unknown key 401, disabled or expired key 403,
 * bucket empty 429 with Retry-After. The bucket lives in PostgreSQL so every API process shares it.
 */
import type { RequestHandler } from 'express';
import { hashApiKey } from '../accounts/apiKeys.js';
import type { AppContext } from '../context.js';
import { sendError } from './errors.js';

export interface AuthedLocals {
  accountId: string;
  keyId: string;
}

export function authenticate(ctx: AppContext): RequestHandler {
  const rate = ctx.config.rateLimit;
  return (req, res, next) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      return sendError(
        res,
        'UNAUTHORIZED',
        header
          ? 'the Authorization header must be "Bearer <API key>"'
          : 'missing Authorization header: send "Authorization: Bearer <API key>"',
      );
    }
    ctx.pool
      .query<{ key_id: string | null; account_id: string | null; state: string; retry_after: number }>(
        'select * from mediagen_authenticate($1, $2, $3)',
        [hashApiKey(match[1]!), rate?.perSecond ?? 0, rate?.burst ?? 0],
      )
      .then(({ rows }) => {
        const r = rows[0]!;
        switch (r.state) {
          case 'unknown':
            return sendError(res, 'UNAUTHORIZED', 'invalid API key');
          case 'disabled':
            return sendError(res, 'FORBIDDEN', 'this API key is disabled; ask the operator for a new key');
          case 'expired':
            return sendError(res, 'FORBIDDEN', 'this API key has expired; ask the operator for a new key');
          case 'limited': {
            const seconds = Math.max(1, Math.ceil(r.retry_after));
            return sendError(
              res,
              'RATE_LIMITED',
              `rate limit of ${rate!.perSecond} requests per second (burst ${rate!.burst}) exceeded for this key; retry after ${seconds} s`,
              { 'Retry-After': String(seconds) },
            );
          }
          default:
            res.locals.accountId = r.account_id!;
            res.locals.keyId = r.key_id!;
            next();
        }
      })
      .catch(next);
  };
}
