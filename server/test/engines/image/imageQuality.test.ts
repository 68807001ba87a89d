import { describe, expect, it } from 'vitest';
import {
  cropBorder,
  lumaPlane,
  meanSquaredError,
  psnr,
  ssim,
  type Plane,
} from '../../../src/engines/image/imageQuality.js';

function plane(width: number, height: number, value: (x: number, y: number) => number): Plane {
  const data = new Float64Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y);
  return { width, height, data };
}

const clamp = (v: number) => Math.min(255, Math.max(0, v));
// A 24x20 pattern with edges and gradients, a copy with a fixed pseudo-noise of -8..8 added, and its
// negative. The expected figures were computed with scikit-image 0.19.3 (Debian python3-skimage):
//   structural_similarity(a, o, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)
//   peak_signal_noise_ratio(a, o, data_range=255)
const a = plane(24, 20, (x, y) => ((x * x + y * 5) % 200) + 2 * y);
const noisy = plane(24, 20, (x, y) => clamp(((x * x + y * 5) % 200) + 2 * y + (((x * 3 + y * y) % 17) - 8)));
const negative = plane(24, 20, (x, y) => clamp(255 - (((x * x + y * 5) % 200) + 2 * y)));

describe('psnr', () => {
  it('is Infinity for identical planes', () => {
    expect(psnr(a, a)).toBe(Infinity);
  });

  it('is 20 log10(255) = 48.13 dB when every pixel is off by one', () => {
    const off = plane(24, 20, (x, y) => a.data[y * 24 + x]! + 1);
    expect(meanSquaredError(a, off)).toBe(1);
    expect(psnr(a, off)).toBeCloseTo(48.1308, 4);
  });

  it('is 0 dB between black and white', () => {
    expect(
      psnr(
        plane(4, 4, () => 0),
        plane(4, 4, () => 255),
      ),
    ).toBe(0);
  });

  it('matches scikit-image on a noisy copy and on the negative', () => {
    expect(psnr(a, noisy)).toBeCloseTo(34.277720594815634, 9);
    expect(psnr(a, negative)).toBeCloseTo(6.594077449102752, 9);
  });

  it('refuses planes of different sizes', () => {
    expect(() =>
      psnr(
        a,
        plane(20, 24, () => 0),
      ),
    ).toThrow(/differ in size/);
  });
});

describe('ssim', () => {
  it('is 1 for identical planes', () => {
    expect(ssim(a, a)).toBeCloseTo(1, 12);
  });

  it('matches scikit-image on a noisy copy and on the negative', () => {
    expect(ssim(a, noisy)).toBeCloseTo(0.9897311289738236, 9);
    expect(ssim(a, negative)).toBeCloseTo(-0.8894209559784058, 9);
  });

  it('reduces to the luminance term for two flat planes: (2 m1 m2 + C1) / (m1^2 + m2^2 + C1)', () => {
    const c1 = (0.01 * 255) ** 2;
    const expected = (2 * 100 * 150 + c1) / (100 ** 2 + 150 ** 2 + c1); // 0.92309...
    expect(
      ssim(
        plane(16, 16, () => 100),
        plane(16, 16, () => 150),
      ),
    ).toBeCloseTo(expected, 12);
  });

  it('falls as the noise grows', () => {
    const withNoise = (k: number) =>
      plane(24, 20, (x, y) => clamp(a.data[y * 24 + x]! + k * (((x * 7 + y * 3) % 9) - 4)));
    const scores = [1, 3, 6].map((k) => ssim(a, withNoise(k)));
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
  });

  it('needs at least an 11x11 window', () => {
    expect(() =>
      ssim(
        plane(10, 10, () => 1),
        plane(10, 10, () => 1),
      ),
    ).toThrow(/11x11/);
  });
});

describe('lumaPlane and cropBorder', () => {
  it('weighs red, green and blue by BT.601 and reads RGBA too', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
    expect(Array.from(lumaPlane(rgb, 2, 2).data)).toEqual([
      0.299 * 255,
      0.587 * 255,
      0.114 * 255,
      expect.closeTo(255, 9),
    ]);
    const rgba = Uint8Array.from([10, 20, 30, 99]);
    expect(lumaPlane(rgba, 1, 1, 4).data[0]).toBeCloseTo(0.299 * 10 + 0.587 * 20 + 0.114 * 30, 12);
    expect(() => lumaPlane(rgb, 3, 3)).toThrow(/expected 3x3x3/);
  });

  it('drops a frame of the given width', () => {
    const p = plane(5, 4, (x, y) => y * 5 + x);
    const inner = cropBorder(p, 1);
    expect([inner.width, inner.height]).toEqual([3, 2]);
    expect(Array.from(inner.data)).toEqual([6, 7, 8, 11, 12, 13]);
    expect(() => cropBorder(p, 2)).toThrow(/cannot crop/);
  });
});
