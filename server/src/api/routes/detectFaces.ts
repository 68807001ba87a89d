/**
 * POST /face-swap/detect (spec 4.4, free): downloads the source image, finds the faces and answers
 * URLs of the cropped faces, stored and served by this server (signed, 7 days).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DetectFacesRequest, formatValidationError } from '@mediagen/core';
import type { RequestHandler } from 'express';
import type { AppContext } from '../../context.js';
import { faceEngines } from '../../engines/registry.js';
import { EngineError } from '../../engines/types.js';
import { MediaFetchError } from '../../media/fetch.js';
import { ApiError, internalError, route } from '../errors.js';

export const NO_FACES_MESSAGE = 'No faces were found in the source image.';

export function detectFacesRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const parsed = DetectFacesRequest.strict().safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const dir = await mkdtemp(join(tmpdir(), 'mediagen-detect-'));
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    try {
      let source;
      try {
        source = await ctx.fetcher.fetch(
          parsed.data.source_image,
          join(dir, 'source'),
          'source_image',
          ['image'],
          controller.signal,
        );
      } catch (err) {
        if (err instanceof MediaFetchError) throw new ApiError('VALIDATION_ERROR', err.message);
        throw err;
      }
      let faces;
      try {
        const engines = await faceEngines();
        faces = await engines.detectFaces(source.path, controller.signal);
      } catch (err) {
        if (controller.signal.aborted) return;
        if (err instanceof EngineError)
          throw new ApiError('VALIDATION_ERROR', `source_image: ${err.message}`);
        throw internalError(res, ctx.log, 'face detection failed', err);
      }
      const batch = randomUUID();
      const now = new Date();
      const urls: string[] = [];
      const keys: string[] = [];
      for (const [i, face] of faces.entries()) {
        const key = `faces/${batch}/face-${i + 1}.png`;
        await ctx.storage.putBuffer(key, face.crop);
        keys.push(key);
        urls.push(ctx.signer.sign(key, now).url);
      }
      // Recorded so that jobs/tasks/purgeExpiredOutputs.ts deletes them once their URLs expired.
      if (keys.length > 0) {
        await ctx.pool.query(
          `insert into face_crops (key, created_at) select unnest($1::text[]), $2 on conflict do nothing`,
          [keys, now],
        );
      }
      res.json({
        success: true,
        data: urls.length > 0 ? { faces: urls } : { faces: [], message: NO_FACES_MESSAGE },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
