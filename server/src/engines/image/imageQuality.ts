/**
 * Full-reference image quality: how close a reconstructed picture is to the original, as the
 * super-resolution literature measures it. Used by bench/upscale.bench.ts to compare sharp's Lanczos
 * with the ESRGAN/RDN upscalers on real photos.
 *
 * Both measures work on one 8-bit plane (usually the luma from lumaPlane()), as SR papers report them:
 *   - PSNR: 10 * log10(peak^2 / MSE), in dB; Infinity for identical planes.
 *   - SSIM: Wang, Bovik, Sheikh and Simoncelli (2004), with their constants (K1 = 0.01, K2 = 0.03) and
 *     an 11x11 Gaussian window of sigma 1.5, averaged over the pixels whose window lies inside the
 *     picture. This is scikit-image's structural_similarity(gaussian_weights=True, sigma=1.5,
 *     use_sample_covariance=False, data_range=255) to float rounding (the tests pin that).
 */

/** One channel of a picture, row-major, values 0..255. */
export interface Plane {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

/** Luma of an interleaved RGB(A) raster, BT.601 weights, full range 0..255. */
export function lumaPlane(rgb: ArrayLike<number>, width: number, height: number, channels = 3): Plane {
  if (rgb.length !== width * height * channels) {
    throw new RangeError(`expected ${width}x${height}x${channels} values, got ${rgb.length}`);
  }
  const data = new Float64Array(width * height);
  for (let p = 0; p < data.length; p++) {
    const i = p * channels;
    data[p] = 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  }
  return { width, height, data };
}

/** The plane without a `border`-pixel frame (SR evaluations drop `scale` pixels at each edge). */
export function cropBorder(plane: Plane, border: number): Plane {
  const width = plane.width - 2 * border;
  const height = plane.height - 2 * border;
  if (border < 0 || width <= 0 || height <= 0) {
    throw new RangeError(`cannot crop ${border} px from ${plane.width}x${plane.height}`);
  }
  const data = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      data[y * width + x] = plane.data[(y + border) * plane.width + x + border]!;
  }
  return { width, height, data };
}

function sameSize(a: Plane, b: Plane): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new RangeError(`planes differ in size: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  }
  if (a.data.length !== a.width * a.height || b.data.length !== b.width * b.height) {
    throw new RangeError('plane data does not match its width x height');
  }
}

/** Mean squared error between two planes of the same size. */
export function meanSquaredError(a: Plane, b: Plane): number {
  sameSize(a, b);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = a.data[i]! - b.data[i]!;
    sum += d * d;
  }
  return sum / a.data.length;
}

/** Peak signal-to-noise ratio in dB (Infinity when the planes are identical). */
export function psnr(a: Plane, b: Plane, peak = 255): number {
  const mse = meanSquaredError(a, b);
  return mse === 0 ? Infinity : 10 * Math.log10((peak * peak) / mse);
}

const SIGMA = 1.5;
const RADIUS = 5; // scikit-image: int(truncate * sigma + 0.5) with truncate 3.5 -> an 11x11 window

function gaussianKernel(): Float64Array {
  const k = new Float64Array(2 * RADIUS + 1);
  let sum = 0;
  for (let i = -RADIUS; i <= RADIUS; i++) sum += k[i + RADIUS] = Math.exp(-(i * i) / (2 * SIGMA * SIGMA));
  for (let i = 0; i < k.length; i++) k[i] = k[i]! / sum;
  return k;
}

/**
 * Gaussian-weighted local mean of `values` at every pixel whose window lies inside the plane, as a
 * (w - 2R) x (h - 2R) grid. Separable: rows first, then columns.
 */
function localMean(values: Float64Array, width: number, height: number, kernel: Float64Array): Float64Array {
  const innerW = width - 2 * RADIUS;
  const innerH = height - 2 * RADIUS;
  const rows = new Float64Array(innerW * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < innerW; x++) {
      let s = 0;
      for (let k = 0; k < kernel.length; k++) s += kernel[k]! * values[y * width + x + k]!;
      rows[y * innerW + x] = s;
    }
  }
  const out = new Float64Array(innerW * innerH);
  for (let y = 0; y < innerH; y++) {
    for (let x = 0; x < innerW; x++) {
      let s = 0;
      for (let k = 0; k < kernel.length; k++) s += kernel[k]! * rows[(y + k) * innerW + x]!;
      out[y * innerW + x] = s;
    }
  }
  return out;
}

/** Mean structural similarity of two planes of the same size (1 when identical; at least 11x11). */
export function ssim(a: Plane, b: Plane, peak = 255): number {
  sameSize(a, b);
  const { width, height } = a;
  if (width <= 2 * RADIUS || height <= 2 * RADIUS) {
    throw new RangeError(`SSIM needs at least ${2 * RADIUS + 1}x${2 * RADIUS + 1} pixels`);
  }
  const n = width * height;
  const x = Float64Array.from(a.data);
  const y = Float64Array.from(b.data);
  const xx = new Float64Array(n);
  const yy = new Float64Array(n);
  const xy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xx[i] = x[i]! * x[i]!;
    yy[i] = y[i]! * y[i]!;
    xy[i] = x[i]! * y[i]!;
  }
  const kernel = gaussianKernel();
  const [mx, my, mxx, myy, mxy] = [x, y, xx, yy, xy].map((v) => localMean(v, width, height, kernel)) as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const c1 = (0.01 * peak) ** 2;
  const c2 = (0.03 * peak) ** 2;
  let sum = 0;
  for (let i = 0; i < mx.length; i++) {
    const ux = mx[i]!;
    const uy = my[i]!;
    const vx = mxx[i]! - ux * ux;
    const vy = myy[i]! - uy * uy;
    const cxy = mxy[i]! - ux * uy;
    sum += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
  }
  return sum / mx.length;
}
