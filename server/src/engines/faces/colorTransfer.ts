/**
 * Colour transfer (Reinhard et al. 2001, in YCbCr instead of lαβ because it is cheaper and close enough
 * for skin): shifts and scales each channel of the warped source so that, inside the face mask, its mean
 * and spread match the target face's. The source keeps its features; lighting and skin tone follow the
 * target, which is what makes a pasted face look like it belongs in the picture.
 */
import type { FacePatch } from './facePatch.js';
import type { RgbImage } from './rgbImage.js';

/**
 * Limits on how much the spread of a channel may be stretched or squeezed. Brightness keeps at least
 * half its contrast (features stay visible); colour may shrink to nothing (a black-and-white target
 * gets a black-and-white face).
 */
const MIN_SCALE = [0.5, 0, 0];
const MAX_SCALE = 2;

function toYcc(r: number, g: number, b: number, out: Float64Array): void {
  out[0] = 0.299 * r + 0.587 * g + 0.114 * b;
  out[1] = -0.168736 * r - 0.331264 * g + 0.5 * b;
  out[2] = 0.5 * r - 0.418688 * g - 0.081312 * b;
}

export function colorTransfer(patch: FacePatch, target: RgbImage): void {
  const sum = { src: new Float64Array(3), tgt: new Float64Array(3) };
  const sq = { src: new Float64Array(3), tgt: new Float64Array(3) };
  const ycc = new Float64Array(3);
  let n = 0;
  const { rgb, coverage, width, height, left, top } = patch;
  const tdata = target.data;
  const tw = target.width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * width + x;
      if (!coverage[o]) continue;
      n++;
      toYcc(rgb[o * 3]!, rgb[o * 3 + 1]!, rgb[o * 3 + 2]!, ycc);
      for (let c = 0; c < 3; c++) {
        sum.src[c]! += ycc[c]!;
        sq.src[c]! += ycc[c]! * ycc[c]!;
      }
      const t = ((top + y) * tw + left + x) * 3;
      toYcc(tdata[t]!, tdata[t + 1]!, tdata[t + 2]!, ycc);
      for (let c = 0; c < 3; c++) {
        sum.tgt[c]! += ycc[c]!;
        sq.tgt[c]! += ycc[c]! * ycc[c]!;
      }
    }
  }
  if (n < 16) return;
  const shift = new Float64Array(3);
  const scale = new Float64Array(3);
  const srcMean = new Float64Array(3);
  for (let c = 0; c < 3; c++) {
    const ms = sum.src[c]! / n;
    const mt = sum.tgt[c]! / n;
    const ss = Math.sqrt(Math.max(0, sq.src[c]! / n - ms * ms));
    const st = Math.sqrt(Math.max(0, sq.tgt[c]! / n - mt * mt));
    srcMean[c] = ms;
    scale[c] = ss > 1e-3 ? Math.min(MAX_SCALE, Math.max(MIN_SCALE[c]!, st / ss)) : 1;
    shift[c] = mt;
  }
  for (let o = 0; o < width * height; o++) {
    if (!coverage[o]) continue;
    const q = o * 3;
    toYcc(rgb[q]!, rgb[q + 1]!, rgb[q + 2]!, ycc);
    const yy = (ycc[0]! - srcMean[0]!) * scale[0]! + shift[0]!;
    const cb = (ycc[1]! - srcMean[1]!) * scale[1]! + shift[1]!;
    const cr = (ycc[2]! - srcMean[2]!) * scale[2]! + shift[2]!;
    rgb[q] = yy + 1.402 * cr;
    rgb[q + 1] = yy - 0.344136 * cb - 0.714136 * cr;
    rgb[q + 2] = yy + 1.772 * cb;
  }
}
