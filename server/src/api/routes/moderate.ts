/**
 * POST /moderation (spec 4.6, synchronous): exactly one of image_url, video_url, text; the media is
 * downloaded (video up to 200 MB) and classified against one policy. A text or an image is counted
 * for billing while it is classified, once its picture has been decoded
 * (billing/pendingModerationCount.ts), so billing adds no time to the call; the count is taken back
 * if the call fails after all. A video, whose frames can still turn out unreadable one by one, is
 * counted once it has been scored. Only successful calls count. duration_ms is measured here, from
 * the validated request to the verdict: download, frame sampling and every classifier call. An image
 * whose download began while the key was checked (../prefetchImage.ts) is taken from there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  formatValidationError,
  MODERATION_LIMITS,
  ModerationRequest,
  moderationMediaType,
  type ModerationResult,
} from '@mediagen/core';
import type { RequestHandler } from 'express';
import { InsufficientCreditsError } from '../../billing/charge.js';
import { PendingModerationCount } from '../../billing/pendingModerationCount.js';
import type { AppContext } from '../../context.js';
import { moderationEngine } from '../../engines/registry.js';
import { ImageDecodeError } from '../../engines/moderation/decodeImage.js';
import { VideoDecodeError } from '../../engines/moderation/videoFrames.js';
import { EngineError } from '../../engines/types.js';
import { MediaFetchError } from '../../media/fetch.js';
import { ApiError, internalError, route } from '../errors.js';
import { prefetchedImage } from '../prefetchImage.js';

function round(n: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function moderateRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const parsed = ModerationRequest.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const body = parsed.data;
    const unknown = Object.keys((req.body ?? {}) as object).filter(
      (k) => !['image_url', 'video_url', 'text', 'policy', 'threshold', 'max_frames'].includes(k),
    );
    if (unknown.length > 0) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`,
      );
    }
    const mediaType = moderationMediaType(body);
    const started = performance.now();
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    // Only a video goes to a temporary file (ffmpeg reads it); a picture is decoded from memory.
    const dir = mediaType === 'video' ? await mkdtemp(join(tmpdir(), 'mediagen-mod-')) : undefined;
    const accountId = res.locals.accountId as string;
    const count = new PendingModerationCount(ctx.pool, accountId);
    const startCounting = () => count.start();
    let result: ModerationResult;
    try {
      const engine = await moderationEngine().catch((err: Error) => {
        throw internalError(res, ctx.log, 'moderation classification failed', err);
      });
      const field = mediaType === 'text' ? 'text' : mediaType === 'image' ? 'image_url' : 'video_url';
      const classify = async <T>(fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (err) {
          if (err instanceof ApiError) throw err;
          // The engine could not read the media (spec 7: "media could not be fetched or read" is a 400).
          if (
            err instanceof EngineError ||
            err instanceof ImageDecodeError ||
            err instanceof VideoDecodeError
          ) {
            throw new ApiError('VALIDATION_ERROR', `${field}: ${err.message}`);
          }
          throw internalError(res, ctx.log, 'moderation classification failed', err);
        }
      };
      const fetched = async <T>(download: () => Promise<T>): Promise<T> => {
        try {
          return await download();
        } catch (err) {
          if (err instanceof MediaFetchError) throw new ApiError('VALIDATION_ERROR', err.message);
          throw err;
        }
      };
      /** The raw score, and for a video the frames it looked at. */
      let scored: { score: number; video?: Awaited<ReturnType<typeof engine.scoreVideo>> };
      if (mediaType === 'text') {
        startCounting();
        scored = {
          score: await classify(() => engine.scoreText(body.text!, body.policy, controller.signal)),
        };
      } else if (mediaType === 'image') {
        const { bytes } = await fetched(
          () =>
            prefetchedImage(res, body.image_url!) ??
            ctx.fetcher.fetchBytes(body.image_url!, 'image_url', ['image'], controller.signal),
        );
        scored = {
          score: await classify(() =>
            engine.scoreImage(bytes, body.policy, controller.signal, startCounting),
          ),
        };
      } else {
        const media = await fetched(() =>
          ctx.fetcher.fetch(
            body.video_url!,
            join(dir!, 'input'),
            'video_url',
            ['video'],
            controller.signal,
            MODERATION_LIMITS.videoMaxBytes,
          ),
        );
        const video = await classify(() =>
          engine.scoreVideo(media.path, {
            policy: body.policy,
            threshold: body.threshold,
            maxFrames: body.max_frames,
            signal: controller.signal,
          }),
        );
        scored = { score: video.score, video };
      }
      // The verdict is taken on the rounded score, so `nsfw === score >= threshold` holds for what is sent.
      const score = round(scored.score);
      const verdict = {
        nsfw: score >= body.threshold,
        score,
        threshold: body.threshold,
        policy: body.policy,
      };
      const duration_ms = Math.round(performance.now() - started);
      const { video } = scored;
      result = video
        ? {
            ...verdict,
            media_type: 'video',
            duration_ms,
            frames_checked: video.framesChecked,
            frames: video.frames.map((f) => ({ timestamp: round(f.timestamp, 3), score: round(f.score) })),
          }
        : { ...verdict, media_type: mediaType as 'text' | 'image', duration_ms };
    } catch (err) {
      // A failed call does not count (spec 4.6 billing rule 4).
      await count.cancel().catch((uncountError: Error) => {
        ctx.log.error(
          `moderation call of account ${accountId} failed after it was counted, and taking the count back failed: ${uncountError.message}`,
        );
      });
      // A client that left gets no answer, and its leaving is not the server's error.
      if (controller.signal.aborted) return;
      throw err;
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
    try {
      await count.confirm();
    } catch (err) {
      if (err instanceof InsufficientCreditsError) {
        throw new ApiError(
          'PAYMENT_REQUIRED',
          `this call completes a batch of ${MODERATION_LIMITS.batchSize} moderation calls costing $0.01 and the balance cannot pay it; top up and retry the call`,
        );
      }
      throw err;
    }
    res.json({ success: true, data: result });
  });
}
