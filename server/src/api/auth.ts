/**
 * Authentication (spec 5) and the per-key rate limit (spec 7, 429), in one database round trip
 * (the SQL function mediagen_authenticate): missing or unknown key 401, disabled or expired key 403,
 * bucket empty 429 with Retry-After. The bucket lives in PostgreSQL so every API process shares it.
 */
import type { RequestHandler, Response } from 'express';
import { hashApiKey } from '../accounts/apiKeys.js';
import type { AppContext } from '../context.js';
import { sendError } from './errors.js';
import type { RecentKeys } from './recentKeys.js';

export interface AuthedLocals {
  accountId: string;
  keyId: string;
}

export interface AuthRow {
  key_id: string | null;
  account_id: string | null;
  state: string;
  retry_after: number;
}

/** The SQL call that authenticates and takes a rate-limit token; parameters $1..$3. */
export const AUTHENTICATE_SQL = 'mediagen_authenticate($1, $2, $3)';

/**
 * The authentication call for a key no account has (a zero hash) and no rate limit: it compiles the
 * function in the connection that runs it and writes nothing. main.ts warms the API's connections
 * with it (db/warmPool.ts).
 */
export const AUTHENTICATE_WARM_UP = {
  sql: `select * from ${AUTHENTICATE_SQL}`,
  params: [Buffer.alloc(32), 0, 0],
} as const;

export function bearerKey(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1]! : null;
}

export function authParams(ctx: AppContext, key: string): [Buffer, number, number] {
  const rate = ctx.config.rateLimit;
  return [hashApiKey(key), rate?.perSecond ?? 0, rate?.burst ?? 0];
}

/** Answers 401/403/429 for a failed authentication and returns false; true when the key is usable. */
export function checkAuth(
  ctx: AppContext,
  res: Response,
  header: string | undefined,
  r: AuthRow | undefined,
): boolean {
  const rate = ctx.config.rateLimit;
  if (!header) {
    sendError(res, 'UNAUTHORIZED', 'missing Authorization header: send "Authorization: Bearer <API key>"');
    return false;
  }
  if (!r) {
    sendError(res, 'UNAUTHORIZED', 'the Authorization header must be "Bearer <API key>"');
    return false;
  }
  switch (r.state) {
    case 'unknown':
      sendError(res, 'UNAUTHORIZED', 'invalid API key');
      return false;
    case 'disabled':
      sendError(res, 'FORBIDDEN', 'this API key is disabled; ask the operator for a new key');
      return false;
    case 'expired':
      sendError(res, 'FORBIDDEN', 'this API key has expired; ask the operator for a new key');
      return false;
    case 'limited': {
      const seconds = Math.max(1, Math.ceil(r.retry_after));
      sendError(
        res,
        'RATE_LIMITED',
        `rate limit of ${rate!.perSecond} requests per second (burst ${rate!.burst}) exceeded for this key; retry after ${seconds} s`,
        { 'Retry-After': String(seconds) },
      );
      return false;
    }
    default:
      res.locals.accountId = r.account_id!;
      res.locals.keyId = r.key_id!;
      return true;
  }
}

/** `recentKeys`, when given, learns which keys were accepted and refused (a hint, see recentKeys.ts). */
export function authenticate(ctx: AppContext, recentKeys?: RecentKeys): RequestHandler {
  return (req, res, next) => {
    const key = bearerKey(req.headers.authorization);
    if (!key) return void checkAuth(ctx, res, req.headers.authorization, undefined);
    const params = authParams(ctx, key);
    ctx.pool
      .query<AuthRow>(`select * from ${AUTHENTICATE_SQL}`, params)
      .then(({ rows }) => {
        if (checkAuth(ctx, res, req.headers.authorization, rows[0])) {
          recentKeys?.accepted(params[0]);
          next();
        } else recentKeys?.refused(params[0]);
      })
      .catch(next);
  };
}
