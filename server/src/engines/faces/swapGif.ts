/**
 * Face swap into every frame of a GIF (animated or not) with sharp: frames are decoded as RGBA pages,
 * each swapped like a still image, then re-encoded as a GIF with the target's size, per-frame delays and
 * loop count; transparency is kept. A GIF with no face in any frame fails. The spec counts GIF among
 * image formats, so the output type is image.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { EngineError, type EngineOutput } from '../types.js';
import { findFaces } from './faceDetector.js';
import type { SourceFace } from './sourceFace.js';
import { swapFrame } from './swapFrame.js';

/** Longest side a GIF frame is scaled to for detection. */
const GIF_DETECT_MAX_SIDE = 640;

export async function swapGif(
  source: SourceFace,
  targetPath: string,
  workDir: string,
  signal: AbortSignal,
): Promise<EngineOutput> {
  let decoded;
  let meta;
  try {
    const input = sharp(targetPath, { animated: true, pages: -1 });
    meta = await input.metadata();
    decoded = await input.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch {
    signal.throwIfAborted();
    throw new EngineError('target_media could not be decoded as a GIF');
  }
  const { width, channels } = decoded.info;
  const pages = meta.pages ?? 1;
  const pageHeight = meta.pageHeight ?? decoded.info.height;
  if (channels !== 4) throw new EngineError('target_media GIF decoded with an unexpected pixel layout');
  const rgba = decoded.data;
  const rgb = new Uint8Array(width * pageHeight * 3);
  const scratch = new Uint8Array(rgb.length);
  let framesWithFaces = 0;
  const pageToRgb = (page: number, into: Uint8Array) => {
    for (let i = 0, j = page * width * pageHeight * 4; i < into.length; i += 3, j += 4) {
      into[i] = rgba[j]!;
      into[i + 1] = rgba[j + 1]!;
      into[i + 2] = rgba[j + 2]!;
    }
  };
  // Each page's detection starts before the page before it is swapped, so the detector's worker and
  // this thread work at once (as swapVideo.ts does). findFaces copies the pixels when called, so one
  // scratch buffer serves every page's detection.
  const detectPage = (page: number) => {
    pageToRgb(page, scratch);
    const found = findFaces(
      { data: scratch, width, height: pageHeight },
      { maxSide: GIF_DETECT_MAX_SIDE, tiles: false },
    );
    found.catch(() => undefined);
    return found;
  };
  let next = pages > 0 ? detectPage(0) : undefined;

  for (let page = 0; page < pages; page++) {
    signal.throwIfAborted();
    const found = next!;
    next = page + 1 < pages ? detectPage(page + 1) : undefined;
    const faces = (await found).filter((f) => f.mesh.length > 0);
    const base = page * width * pageHeight * 4;
    pageToRgb(page, rgb);
    const image = { data: rgb, width, height: pageHeight };
    if (faces.length === 0 || swapFrame(image, faces, source) === 0) continue;
    framesWithFaces++;
    for (let i = 0, j = base; i < rgb.length; i += 3, j += 4) {
      rgba[j] = rgb[i]!;
      rgba[j + 1] = rgb[i + 1]!;
      rgba[j + 2] = rgb[i + 2]!;
    }
  }
  if (framesWithFaces === 0)
    throw new EngineError('No face found in any frame of target_media: nothing to swap');

  const path = join(workDir, 'face-swap.gif');
  await sharp(rgba, { raw: { width, height: pageHeight * pages, channels: 4, pageHeight } })
    .gif({ loop: meta.loop ?? 0, ...(meta.delay ? { delay: meta.delay } : {}) })
    .toFile(path);
  return { type: 'image', files: [{ path, mime: 'image/gif', ext: 'gif' }] };
}
