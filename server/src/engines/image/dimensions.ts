/** Output sizes for images: resolution names the long side (1k/2k/4k = 1024/2048/4096 pixels). */
import { EngineError } from '../types.js';

export const IMAGE_LONG_SIDE = { '1k': 1024, '2k': 2048, '4k': 4096 } as const;

/** Parses "16:9" into [16, 9]. */
export function parseAspect(aspect: string): [number, number] {
  const m = /^(\d+):(\d+)$/.exec(aspect);
  const w = Number(m?.[1]);
  const h = Number(m?.[2]);
  if (!m || !w || !h) throw new EngineError(`aspect_ratio "${aspect}" is not of the form W:H`);
  return [w, h];
}

/** Exact pixel size for an aspect ratio whose long side is `longSide`. */
export function sizeForAspect(aspect: string, longSide: number): { width: number; height: number } {
  const [w, h] = parseAspect(aspect);
  if (w >= h) return { width: longSide, height: Math.max(1, Math.round((longSide * h) / w)) };
  return { width: Math.max(1, Math.round((longSide * w) / h)), height: longSide };
}

export function imageSize(
  aspect: string | undefined,
  resolution: string | undefined,
): { width: number; height: number } {
  const longSide = IMAGE_LONG_SIDE[(resolution ?? '1k') as keyof typeof IMAGE_LONG_SIDE] ?? 1024;
  return sizeForAspect(aspect ?? '1:1', longSide);
}
