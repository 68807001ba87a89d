/**
 * GET /files/{key}?expires=&signature= : outputs and face crops, served only at HMAC-signed URLs
 * (storage/signedUrl.ts). Tampered or expired URLs are refused with 403. The Content-Type comes from
 * the stored file's type and Content-Disposition carries its file name. Byte ranges are supported
 * so video players can seek.
 */
import { basename } from 'node:path';
import type { RequestHandler } from 'express';
import type { AppContext } from '../../context.js';
import { isValidKey, mimeOfKey } from '../../storage/storage.js';
import { route, sendError } from '../errors.js';

export function serveFile(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const raw = (req.params as { key?: string[] | string }).key;
    const key = Array.isArray(raw) ? raw.join('/') : String(raw ?? '');
    const q = req.query as Record<string, unknown>;
    const expires = typeof q.expires === 'string' ? q.expires : undefined;
    const signature = typeof q.signature === 'string' ? q.signature : undefined;
    if (!isValidKey(key)) return sendError(res, 'NOT_FOUND', 'no such file');
    const state = ctx.signer.verify(key, expires, signature);
    if (state === 'invalid')
      return sendError(res, 'FORBIDDEN', 'this file URL is not valid (its signature does not match)');
    if (state === 'expired') {
      return sendError(
        res,
        'FORBIDDEN',
        'this file URL has expired (output URLs are valid for 7 days from the generation)',
      );
    }
    const size = await ctx.storage.size(key);
    if (size === null) return sendError(res, 'NOT_FOUND', 'the file no longer exists');
    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    if (header) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
      if (m && (m[1] || m[2])) {
        const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
        const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
        if (start > end || start >= size) {
          res.setHeader('Content-Range', `bytes */${size}`);
          return res.status(416).end();
        }
        range = { start, end };
      }
    }
    const obj = await ctx.storage.open(key, range);
    if (!obj) return sendError(res, 'NOT_FOUND', 'the file no longer exists');
    const name = basename(key);
    res.setHeader('Content-Type', mimeOfKey(key));
    res.setHeader('Content-Disposition', `inline; filename="${name}"`);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader(
      'Cache-Control',
      `private, max-age=${Math.max(0, Number(expires) - Math.floor(Date.now() / 1000))}, immutable`,
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
    } else {
      res.setHeader('Content-Length', String(size));
    }
    if (req.method === 'HEAD') {
      obj.stream.destroy();
      return res.end();
    }
    obj.stream.on('error', (err) => {
      ctx.log.error(`reading ${key} failed: ${err.message}`);
      res.destroy();
    });
    obj.stream.pipe(res);
  });
}
