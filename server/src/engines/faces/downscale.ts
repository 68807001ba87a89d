/**
 * Shrinks a picture by an integer factor by averaging each factor x factor block, in plain JS: a 720p
 * frame becomes 640x360 in a few milliseconds, so the detector never copies the full frame into a
 * tensor (the per-frame cost of video detection).
 */
import type { RgbImage } from './rgbImage.js';

export function downscale(image: RgbImage, factor: number): RgbImage {
  if (factor <= 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const out = new Uint8Array(width * height * 3);
  const src = image.data;
  const rowBytes = image.width * 3;
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < factor; dy++) {
        let p = (y * factor + dy) * rowBytes + x * factor * 3;
        for (let dx = 0; dx < factor; dx++, p += 3) {
          r += src[p]!;
          g += src[p + 1]!;
          b += src[p + 2]!;
        }
      }
      const o = (y * width + x) * 3;
      out[o] = r / area;
      out[o + 1] = g / area;
      out[o + 2] = b / area;
    }
  }
  return { data: out, width, height };
}
