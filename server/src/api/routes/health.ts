/**
 * GET /healthz: the process answers (liveness). GET /readyz: the database answers and, in an API
 * process, the moderation and face models are loaded (moderationEngine.warmUp(), warmUpFaces()), so
 * a load balancer sends traffic only to processes that can serve it at full speed.
 */
import type { RequestHandler } from 'express';
import type { AppContext } from '../../context.js';
import { route } from '../errors.js';

export interface Readiness {
  engines: 'warming' | 'ready' | 'failed';
  detail?: string;
  /** Starts the warm-up again (after a failure); main.ts sets it. */
  retry?: () => void;
}

/** Least time between two warm-up attempts after a failure. */
export const WARM_UP_RETRY_MS = 30_000;

export function healthz(): RequestHandler {
  return (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  };
}

export function readyz(ctx: AppContext, readiness: Readiness): RequestHandler {
  return route(async (_req, res) => {
    let database = 'ok';
    try {
      await ctx.pool.query('select 1');
    } catch (err) {
      database = `unreachable: ${(err as Error).message}`;
    }
    if (readiness.engines === 'failed') readiness.retry?.();
    const ready = database === 'ok' && readiness.engines === 'ready';
    res.status(ready ? 200 : 503).json({
      success: ready,
      ...(ready
        ? { data: { status: 'ready', database, engines: readiness.engines } }
        : {
            error: {
              code: 'INTERNAL_ERROR',
              message: `not ready: database ${database}; engines ${readiness.engines}${readiness.detail ? ` (${readiness.detail})` : ''}`,
            },
          }),
    });
  });
}
