import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { Generation, MediaGenClient } from '@mediagen/core';

/** Longest side of a preview thumbnail, in pixels. */
export const PREVIEW_MAX_SIDE = 256;
/** A preview is dropped rather than sent when its base64 would exceed this (clients cap results near 1 MB). */
export const PREVIEW_MAX_BASE64_BYTES = 100_000;
/** Outputs larger than this are not downloaded for a preview. */
const SOURCE_MAX_BYTES = 25 * 1024 * 1024;

type SharpFactory = (input: Buffer) => {
  rotate(): ReturnType<SharpFactory>;
  resize(options: {
    width: number;
    height: number;
    fit: 'inside';
    withoutEnlargement: boolean;
  }): ReturnType<SharpFactory>;
  jpeg(options: { quality: number }): ReturnType<SharpFactory>;
  toBuffer(): Promise<Buffer>;
};

let sharpLoader: Promise<SharpFactory | undefined> | undefined;

/** sharp (libvips) makes the thumbnail. It is an optional dependency: without it there is no preview. */
function loadSharp(): Promise<SharpFactory | undefined> {
  sharpLoader ??= import('sharp').then(
    (module) => (module.default ?? module) as unknown as SharpFactory,
    () => undefined,
  );
  return sharpLoader;
}

/**
 * A small JPEG thumbnail (at most 256 px a side, well under 100 kB) of a completed image generation's
 * first output, as an MCP image content block, so that an assistant can see what it made without
 * downloading it. Never the full file. Any problem (no sharp, download failed, not an image) gives no
 * preview rather than an error: the resource_link is the result; the preview is a courtesy.
 */
export async function previewOf(
  client: MediaGenClient,
  generation: Generation,
  signal: AbortSignal,
): Promise<ContentBlock | undefined> {
  if (generation.status !== 'completed' || generation.type !== 'image' || !generation.output_url)
    return undefined;
  const sharp = await loadSharp();
  if (!sharp) return undefined;
  try {
    const file = await client.download(generation.output_url, { signal });
    if (file.contentLength !== undefined && file.contentLength > SOURCE_MAX_BYTES) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of file.body) {
      size += chunk.length;
      if (size > SOURCE_MAX_BYTES) return undefined;
      chunks.push(chunk);
    }
    const thumbnail = await sharp(Buffer.concat(chunks))
      .rotate()
      .resize({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
    const data = thumbnail.toString('base64');
    if (data.length > PREVIEW_MAX_BASE64_BYTES) return undefined;
    return { type: 'image', data, mimeType: 'image/jpeg' };
  } catch {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}
