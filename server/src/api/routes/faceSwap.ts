/**
 * POST /face-swap (spec 4.5, charged): the target is downloaded at submit to learn its type (image,
 * GIF or video) and, for a video, its duration (ffprobe), which sets the price. Then charge + row +
 * job in one transaction, 202 processing; the job (jobs/tasks/faceSwap.ts) does the swap.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaceSwapRequest, formatValidationError } from '@mediagen/core';
import type { RequestHandler } from 'express';
import { faceSwapPriceMicro } from '../../billing/pricing.js';
import type { AppContext } from '../../context.js';
import { MediaFetchError } from '../../media/fetch.js';
import { probe } from '../../media/ffmpeg.js';
import { createGeneration } from '../createGeneration.js';
import { ApiError, route } from '../errors.js';
import { generationView } from '../generationView.js';
import { idempotencyKeyOf } from './submitGeneration.js';

/** Longest video target accepted, in seconds (keeps one swap bounded). */
export const FACE_SWAP_MAX_VIDEO_SECONDS = 120;

export function faceSwapRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
    const body: unknown = req.body ?? {};
    const parsed = FaceSwapRequest.strict().safeParse(body);
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const dir = await mkdtemp(join(tmpdir(), 'mediagen-swap-'));
    try {
      let target;
      try {
        target = await ctx.fetcher.fetch(parsed.data.target_media, join(dir, 'target'), 'target_media', [
          'image',
          'video',
        ]);
      } catch (err) {
        if (err instanceof MediaFetchError) throw new ApiError('VALIDATION_ERROR', err.message);
        throw err;
      }
      let seconds = 0;
      if (target.kind === 'video') {
        try {
          seconds = (await probe(target.path)).durationSeconds;
        } catch {
          throw new ApiError('VALIDATION_ERROR', 'target_media: the video could not be read');
        }
        if (!(seconds > 0)) throw new ApiError('VALIDATION_ERROR', 'target_media: the video has no duration');
        if (seconds > FACE_SWAP_MAX_VIDEO_SECONDS) {
          throw new ApiError(
            'VALIDATION_ERROR',
            `target_media: the video lasts ${seconds.toFixed(1)} s; the limit is ${FACE_SWAP_MAX_VIDEO_SECONDS} s`,
          );
        }
      }
      const type = target.kind === 'video' ? 'video' : 'image';
      const entry = ctx.catalog.faceSwap;
      const { row, created } = await createGeneration(ctx.pool, {
        accountId: res.locals.accountId as string,
        keyId: res.locals.keyId as string,
        kind: 'face-swap',
        modelSlug: entry.slug,
        modelName: entry.name,
        task: 'face-swap',
        type,
        params: { ...parsed.data, target_mime: target.mime, target_seconds: seconds },
        priceMicro: faceSwapPriceMicro(entry, { type, seconds }),
        job: 'face_swap',
        idempotencyKey,
        requestFingerprint: { path: 'face-swap', body },
      });
      if (!created) res.setHeader('Idempotent-Replayed', 'true');
      res.status(202).json({ success: true, data: generationView(row, ctx.signer) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
