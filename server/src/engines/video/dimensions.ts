/**
 * Output sizes for video: the resolution names the short side (480p/720p/1080p/4k = 480/720/1080/2160
 * pixels), the aspect ratio gives the long side, rounded to an even number as H.264 4:2:0 requires.
 * 16:9 480p is 854x480, 720p 1280x720, 1080p 1920x1080, 4k 3840x2160.
 */
import { parseAspect } from '../image/dimensions.js';

export const VIDEO_SHORT_SIDE = { '480p': 480, '720p': 720, '1080p': 1080, '4k': 2160 } as const;

export function even(x: number): number {
  return Math.max(2, Math.round(x / 2) * 2);
}

export function shortSide(resolution: unknown, fallback: keyof typeof VIDEO_SHORT_SIDE = '720p'): number {
  return (
    VIDEO_SHORT_SIDE[(resolution as keyof typeof VIDEO_SHORT_SIDE) ?? fallback] ?? VIDEO_SHORT_SIDE[fallback]
  );
}

export function videoSize(aspect: string, short: number): { width: number; height: number } {
  const [w, h] = parseAspect(aspect);
  if (w >= h) return { width: even((short * w) / h), height: short };
  return { width: short, height: even((short * h) / w) };
}

/** Size for a source of sourceW x sourceH kept at its own aspect ratio, short side `short`. */
export function videoSizeLike(
  sourceW: number,
  sourceH: number,
  short: number,
): { width: number; height: number } {
  if (sourceW >= sourceH) return { width: even((short * sourceW) / sourceH), height: short };
  return { width: short, height: even((short * sourceH) / sourceW) };
}
