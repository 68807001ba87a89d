/**
 * POST /moderation with image_url: for a key this process accepted lately (recentKeys.ts), the body is
 * read and the image's download started beside the key's query instead of after it. Measured in the
 * same run (docs/moderation.md): the download no longer adds to an image call, about 0.8 ms of one of
 * about 40 ms.
 *
 * Safe because nothing is given before the key is accepted: the route (routes/moderate.ts) awaits the
 * download only after authentication; when the key is refused, the refusal is answered and the download
 * aborted, or never started if the body arrives after the refusal. A caller without a key accepted in
 * the last minutes cannot make the server fetch anything. A body that cannot be parsed is answered only
 * after the key has been checked, as for every other request (`bodyAfterAuth`).
 */
import { ModerationRequest, moderationMediaType } from '@mediagen/core';
import type { RequestHandler, Response } from 'express';
import { hashApiKey } from '../accounts/apiKeys.js';
import type { AppContext } from '../context.js';
import type { FetchedBytes } from '../media/fetch.js';
import { bearerKey } from './auth.js';
import type { RecentKeys } from './recentKeys.js';

interface Prefetch {
  url: string;
  download: Promise<FetchedBytes>;
}

interface PrefetchLocals {
  /** Settles when the body has been read here (parsed, or bodyError set). */
  bodyRead?: Promise<void>;
  imagePrefetch?: Prefetch;
  bodyError?: unknown;
}

export function prefetchModerationImage(
  ctx: AppContext,
  recentKeys: RecentKeys,
  json: RequestHandler,
): RequestHandler {
  return (req, res, next) => {
    const key = bearerKey(req.headers.authorization);
    if (!key || !recentKeys.has(hashApiKey(key))) return next();
    const locals = res.locals as PrefetchLocals;
    // From the start: a client that leaves while its body arrives starts no download either.
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    // The body is read beside the key's query (next() is not kept waiting), as it is when read after.
    locals.bodyRead = new Promise<void>((resolve) => {
      void json(req, res, (error?: unknown) => {
        resolve();
        if (error) {
          locals.bodyError = error;
          return;
        }
        const parsed = ModerationRequest.safeParse(req.body ?? {});
        if (!parsed.success || moderationMediaType(parsed.data) !== 'image') return;
        // The key was refused, or the client left, while the body arrived.
        if (res.headersSent || controller.signal.aborted) return;
        const url = parsed.data.image_url!;
        ctx.log.debug(
          `image_url download started while the key is checked [${String(res.getHeader('x-request-id'))}]`,
        );
        const download = ctx.fetcher.fetchBytes(url, 'image_url', ['image'], controller.signal);
        // Awaited by the route once the key is accepted; dropped (and aborted) when it is not.
        download.catch(() => undefined);
        locals.imagePrefetch = { url, download };
      });
    });
    next();
  };
}

/** After authentication: the body error held back by the prefetch, or the ordinary body parser. */
export function bodyAfterAuth(json: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const locals = res.locals as PrefetchLocals;
    if (!locals.bodyRead) return json(req, res, next);
    void locals.bodyRead.then(() => next(locals.bodyError));
  };
}

/** The download started for `url` while the key was checked, if one was. */
export function prefetchedImage(res: Response, url: string): Promise<FetchedBytes> | undefined {
  const prefetch = (res.locals as PrefetchLocals).imagePrefetch;
  return prefetch?.url === url ? prefetch.download : undefined;
}
