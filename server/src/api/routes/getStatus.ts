/**
 * GET /status/{id} (spec 4.3). An account sees only its own generations (another's id is 404).
 * Extension `Prefer: wait=N` (N <= 60): hold the request until the generation leaves processing or
 * N seconds pass, woken by LISTEN/NOTIFY (api/generationEvents.ts).
 */
import type { RequestHandler } from 'express';
import type { AppContext } from '../../context.js';
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
    const id = String(req.params.id ?? '').trim();
    const accountId = res.locals.accountId as string;
    if (!UUID.test(id)) throw new ApiError('NOT_FOUND', `generation "${id.slice(0, 100)}" not found`);
    const wait = preferWaitSeconds(req.get('prefer'));
    let row: GenerationRow | undefined;
    if (wait && wait > 0) {
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const deadline = Date.now() + wait * 1000;
      for (;;) {
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
    } else {
      row = await read(id, accountId);
    }
    if (!row) throw new ApiError('NOT_FOUND', `generation "${id}" not found`);
    res.json({ success: true, data: generationView(row, ctx.signer) });
  });
}
