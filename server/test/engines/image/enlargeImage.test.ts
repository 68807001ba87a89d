/**
 * Enlarging with pixel centres aligned (enlargeImage.ts): where a feature lands, the exact size, clean
 * edges, and on a real photo a closer match to the original than sharp's resize, which shifts an
 * enlargement by half an output pixel.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { enlargeCentred } from '../../../src/engines/image/enlargeImage.js';
import type { RawImage } from '../../../src/engines/image/imageEdits.js';
import { cropBorder, lumaPlane, psnr } from '../../../src/engines/image/imageQuality.js';
import { fixture } from '../faces/fixtures.js';

/** A black picture with one white column at `column`. */
function column(width: number, height: number, at: number): RawImage {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) data.fill(255, (y * width + at) * 3, (y * width + at) * 3 + 3);
  return { data, width, height, channels: 3 };
}

/** Brightness-weighted mean x of row `y`. */
function centroidX(image: RawImage, y: number): number {
  let sum = 0;
  let weight = 0;
  for (let x = 0; x < image.width; x++) {
    const v = image.data[(y * image.width + x) * 3]!;
    sum += v * x;
    weight += v;
  }
  return sum / weight;
}

describe('enlargeCentred', () => {
  it.each([
    [16, 32],
    [20, 41],
    [16, 24],
    [10, 49],
    [64, 1024],
  ])('puts input column 7 of %i px where pixel centres map it in %i px', async (width, target) => {
    const k = target / width;
    const out = await enlargeCentred(column(width, 4, 7), target, Math.round(4 * k));
    expect([out.width, out.height]).toEqual([target, Math.round(4 * k)]);
    // Centres aligned: input x maps to (x + 0.5) * k - 0.5 (sharp's resize: half an output pixel later).
    expect(Math.abs(centroidX(out, Math.floor(out.height / 2)) - ((7 + 0.5) * k - 0.5))).toBeLessThan(0.1);
  });

  it('keeps a flat picture flat up to its edges (no dark border from the transform)', async () => {
    const flat: RawImage = { data: Buffer.alloc(30 * 20 * 3, 200), width: 30, height: 20, channels: 3 };
    const out = await enlargeCentred(flat, 77, 51);
    expect(Math.min(...out.data)).toBe(200);
    expect(Math.max(...out.data)).toBe(200);
  });

  it('refuses a target smaller than the picture', async () => {
    await expect(enlargeCentred(column(16, 4, 7), 15, 4)).rejects.toThrow(RangeError);
  });

  it('on a real photo halved and enlarged back, comes closer to the original than sharp resize', async () => {
    const original = await sharp(fixture('portrait-astronaut.jpg')).removeAlpha().raw().toBuffer({
      resolveWithObject: true,
    });
    const { width, height } = original.info;
    const half = await sharp(original.data, { raw: { width, height, channels: 3 } })
      .resize(width / 2, height / 2)
      .raw()
      .toBuffer();
    const small: RawImage = { data: half, width: width / 2, height: height / 2, channels: 3 };
    const centred = await enlargeCentred(small, width, height);
    const resized = await sharp(half, { raw: { width: width / 2, height: height / 2, channels: 3 } })
      .resize(width, height)
      .raw()
      .toBuffer();
    const luma = (data: Buffer) => cropBorder(lumaPlane(data, width, height), 2);
    const ours = psnr(luma(centred.data), luma(original.data));
    const sharps = psnr(luma(resized), luma(original.data));
    expect(ours).toBeGreaterThan(sharps + 1);
  });
});
