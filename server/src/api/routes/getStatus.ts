/**
 * GET /status/{id} (spec 4.3). An account sees only its own generations (another's id is 404).
 * Extension `Prefer: wait=N` (N <= 60): hold the request until the generation leaves processing or
 * N seconds pass, woken by LISTEN/NOTIFY (api/generationEvents.ts).
 */
import type { RequestHandler } from 'express';
import type { AppContext } from '../../context.js';
import { AUTHENTICATE_SQL, authParams, bearerKey, checkAuth, type AuthRow } from '../auth.js';
import { route, ApiError } from '../errors.js';
import type { GenerationEvents } from '../generationEvents.js';
import { GENERATION_COLUMNS, generationView, type GenerationRow } from '../generationView.js';

export const MAX_WAIT_SECONDS = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Seconds asked for by `Prefer: wait=N`, capped at 60; undefined when absent. */
export function preferWaitSeconds(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const m = /(?:^|[,;\s])wait\s*=\s*"?(\d+(?:\.\d+)?)"?/i.exec(header);
  if (!m) return undefined;
  return Math.min(MAX_WAIT_SECONDS, Number(m[1]));
}

export function getStatus(ctx: AppContext, events: GenerationEvents): RequestHandler {
  const read = async (id: string, accountId: string) =>
    (
      await ctx.pool.query<GenerationRow>(
        `select ${GENERATION_COLUMNS} from generations where id = $1 and account_id = $2`,
        [id, accountId],
      )
    ).rows[0];

  return route(async (req, res) => {
    // Authentication, rate limit and the read in ONE round trip (this route is mounted without the
    // auth middleware): status is the hottest endpoint, polled by every client.
    const header = req.headers.authorization;
    const key = bearerKey(header);
    if (!key) return void checkAuth(ctx, res, header, undefined);
    const id = String(req.params.id ?? '').trim();
    const valid = UUID.test(id);
    const { rows } = await ctx.pool.query<AuthRow & Partial<GenerationRow>>(
      `select a.key_id, a.account_id, a.state, a.retry_after,
              g.id, g.status, g.model_name, g.type, g.outputs, g.error_message, g.created_at,
              g.outputs_purged_at
       from ${AUTHENTICATE_SQL} a
       left join generations g on a.state = 'ok' and g.id = $4 and g.account_id = a.account_id`,
      [...authParams(ctx, key), valid ? id : null],
    );
    const first = rows[0];
    if (!checkAuth(ctx, res, header, first)) return;
    if (!valid) throw new ApiError('NOT_FOUND', `generation "${id.slice(0, 100)}" not found`);
    const accountId = res.locals.accountId as string;
    let row: GenerationRow | undefined = first?.id ? (first as GenerationRow) : undefined;
    const wait = preferWaitSeconds(req.get('prefer'));
    if (wait && wait > 0) {
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const deadline = Date.now() + wait * 1000;
      while (row && row.status !== 'completed' && row.status !== 'failed') {
        // Register before re-reading, so a NOTIFY between the read and the wait is not missed.
        const waiter = events.waitFor(id, Math.max(0, deadline - Date.now()), controller.signal);
        row = await read(id, accountId);
        if (
          !row ||
          row.status === 'completed' ||
          row.status === 'failed' ||
          Date.now() >= deadline ||
          controller.signal.aborted
        ) {
          waiter.cancel();
          break;
        }
        await waiter.promise;
        if (Date.now() >= deadline || controller.signal.aborted) {
          row = await read(id, accountId);
          break;
        }
      }
      res.setHeader('Preference-Applied', `wait=${wait}`);
    }
    if (!row) throw new ApiError('NOT_FOUND', `generation "${id}" not found`);
    res.json({ success: true, data: generationView(row, ctx.signer) });
  });
}
