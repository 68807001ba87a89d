/**
 * POST /{model_slug}/{task} (spec 4.2): validate with the core's schema for the task, check the
 * catalog's own limits (durations, voices, resolutions priced), then charge + row + job in one
 * transaction and answer 202 processing. The job does the work (jobs/tasks/generate.ts).
 */
import {
  formatValidationError,
  isTaskName,
  outputTypeForTask,
  TASK_PARAMS,
  type TaskName,
} from '@mediagen/core';
import type { Request, RequestHandler } from 'express';
import type { GenerationModelEntry } from '../../catalog/catalog.js';
import { PricingError, priceMicro } from '../../billing/pricing.js';
import type { AppContext } from '../../context.js';
import { builtInVoices } from '../../engines/registry.js';
import { hashApiKey } from '../../accounts/apiKeys.js';
import { SubmitBatcher } from '../submitBatcher.js';
import { AUTHENTICATE_SQL, authParams, bearerKey, checkAuth, type AuthRow } from '../auth.js';
import { createGeneration, IDEMPOTENCY_KEY_PATTERN, insufficientCredits } from '../createGeneration.js';
import { ApiError, route } from '../errors.js';
import { generationView } from '../generationView.js';

/** Strict (unknown fields refused) versions of the core's task schemas, built once. */
const STRICT_PARAMS = new Map<
  TaskName,
  { safeParse(v: unknown): ReturnType<(typeof TASK_PARAMS)[TaskName]['safeParse']> }
>();
function strictParams(task: TaskName) {
  let schema = STRICT_PARAMS.get(task);
  if (!schema) {
    schema = TASK_PARAMS[task].strict() as never;
    STRICT_PARAMS.set(task, schema!);
  }
  return schema!;
}

export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0]! : header;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError('VALIDATION_ERROR', 'Idempotency-Key: must be 1 to 255 visible ASCII characters');
  }
  return key;
}

async function checkCatalogLimits(
  model: GenerationModelEntry,
  task: TaskName,
  params: Record<string, unknown>,
) {
  const entry = model.tasks[task]!;
  if (entry.durations && typeof params.duration === 'string' && !entry.durations.includes(params.duration)) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `duration: ${model.slug} offers ${entry.durations.map((d) => `"${d}"`).join(', ')} seconds for ${task}`,
    );
  }
  if (task === 'text-to-speech' && typeof params.voice === 'string') {
    const voices =
      model.voices ?? ((entry.engine ?? model.engine) !== 'gateway' ? await builtInVoices() : undefined);
    if (voices && !voices.includes(params.voice)) {
      const shown = voices
        .slice(0, 20)
        .map((v) => `"${v}"`)
        .join(', ');
      throw new ApiError(
        'VALIDATION_ERROR',
        `voice: unknown voice "${params.voice}" for ${model.slug}; valid voices: ${shown}${voices.length > 20 ? ` and ${voices.length - 20} more (see GET /models)` : ''}`,
      );
    }
  }
}

/** What a submit request asks for, once checked without the database; an ApiError when it is wrong. */
async function checkRequest(ctx: AppContext, req: Request) {
  const slug = String(req.params.model);
  const task = String(req.params.task);
  const model = ctx.catalog.bySlug.get(slug);
  if (!model) {
    if (slug === ctx.catalog.faceSwap.slug) {
      throw new ApiError(
        'NOT_FOUND',
        `"${slug}" is not a generation model: use POST /face-swap/detect and POST /face-swap`,
      );
    }
    if (slug === ctx.catalog.moderation.slug) {
      throw new ApiError('NOT_FOUND', `"${slug}" is not a generation model: use POST /moderation`);
    }
    throw new ApiError('NOT_FOUND', `model "${slug}" not found; GET /models lists the models`);
  }
  if (!isTaskName(task) || !model.tasks[task]) {
    throw new ApiError(
      'NOT_FOUND',
      `model "${slug}" does not support task "${task}"; its tasks: ${Object.keys(model.tasks).join(', ')}`,
    );
  }
  const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('VALIDATION_ERROR', 'request body must be a JSON object');
  }
  const parsed = strictParams(task).safeParse(body);
  if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
  const params = parsed.data as Record<string, unknown>;
  await checkCatalogLimits(model, task, params);
  let price: number;
  try {
    price = priceMicro(model, task, params);
  } catch (err) {
    if (err instanceof PricingError) throw new ApiError('VALIDATION_ERROR', err.message);
    throw err;
  }
  return { slug, task, model, idempotencyKey, body, params, price };
}

/**
 * Mounted without the auth middleware: a valid request is authenticated, rate-limited, charged and
 * enqueued in one transaction, grouped with concurrent submits (api/submitBatcher.ts). Any problem found before the database (404, 400) is answered only after
 * the key was checked, so a bad key is still a 401 first.
 */
export function submitGeneration(ctx: AppContext): RequestHandler {
  const batcher = new SubmitBatcher(ctx.pool, ctx.config.rateLimit);
  return route(async (req, res) => {
    const header = req.headers.authorization;
    const key = bearerKey(header);
    if (!key) return void checkAuth(ctx, res, header, undefined);
    let request: Awaited<ReturnType<typeof checkRequest>>;
    try {
      request = await checkRequest(ctx, req);
    } catch (err) {
      const { rows } = await ctx.pool.query<AuthRow>(
        `select * from ${AUTHENTICATE_SQL}`,
        authParams(ctx, key),
      );
      if (!checkAuth(ctx, res, header, rows[0])) return;
      throw err;
    }
    const { slug, task, model, idempotencyKey, body, params, price } = request;
    const generation = {
      kind: 'generation' as const,
      modelSlug: model.slug,
      modelName: model.name,
      task,
      type: outputTypeForTask(task),
      params,
      priceMicro: price,
      job: 'generate',
    };
    if (idempotencyKey === undefined) {
      const { auth, row } = await batcher.submit(generation, hashApiKey(key));
      if (!checkAuth(ctx, res, header, auth)) return;
      if (!row) throw await insufficientCredits(ctx.pool, auth.account_id!, price);
      res.status(202).json({ success: true, data: generationView(row, ctx.signer) });
      return;
    }
    const { rows } = await ctx.pool.query<AuthRow>(`select * from ${AUTHENTICATE_SQL}`, authParams(ctx, key));
    if (!checkAuth(ctx, res, header, rows[0])) return;
    const { row, created } = await createGeneration(ctx.pool, {
      ...generation,
      accountId: res.locals.accountId as string,
      keyId: res.locals.keyId as string,
      idempotencyKey,
      requestFingerprint: { path: `${slug}/${task}`, body },
    });
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({ success: true, data: generationView(row, ctx.signer) });
  });
}
