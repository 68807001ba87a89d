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
import type { RequestHandler } from 'express';
import type { GenerationModelEntry } from '../../catalog/catalog.js';
import { PricingError, priceMicro } from '../../billing/pricing.js';
import type { AppContext } from '../../context.js';
import { builtInVoices } from '../../engines/registry.js';
import { createGeneration, IDEMPOTENCY_KEY_PATTERN } from '../createGeneration.js';
import { ApiError, route } from '../errors.js';
import { generationView } from '../generationView.js';

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

export function submitGeneration(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
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
    const parsed = TASK_PARAMS[task].strict().safeParse(body);
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
    const { row, created } = await createGeneration(ctx.pool, {
      accountId: res.locals.accountId as string,
      keyId: res.locals.keyId as string,
      kind: 'generation',
      modelSlug: model.slug,
      modelName: model.name,
      task,
      type: outputTypeForTask(task),
      params,
      priceMicro: price,
      job: 'generate',
      idempotencyKey,
      requestFingerprint: { path: `${slug}/${task}`, body },
    });
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({ success: true, data: generationView(row, ctx.signer) });
  });
}
