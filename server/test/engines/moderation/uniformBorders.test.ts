/**
 * uniformBorders.ts: the letterbox/pillarbox finder that replaced sharp's trim() in the moderation
 * decode (docs/moderation.md): bars of one colour are found on every side, JPEG noise in a bar is
 * tolerated, and a picture without bars is left whole.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeToSquareRgb } from '../../../src/engines/moderation/decodeImage.js';
import { uniformBorderBox } from '../../../src/engines/moderation/uniformBorders.js';
import { FIXTURES } from './fixtures.js';

async function raw(image: Buffer) {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('uniformBorderBox', () => {
  it('finds pillarbox and letterbox bars around a real photo', async () => {
    const photo = await sharp(readFileSync(FIXTURES + 'coffee.jpg'))
      .resize(200, 150)
      .toBuffer();
    const framed = await sharp(photo)
      .extend({ left: 60, right: 40, top: 10, bottom: 25, background: '#000000' })
      .png()
      .toBuffer();
    const { data, width, height } = await raw(framed);
    const box = uniformBorderBox(data, width, height, 3);
    // The photo may itself start with a near-black row or column: allow a pixel or two.
    expect(box.left).toBeGreaterThanOrEqual(60);
    expect(box.left).toBeLessThanOrEqual(62);
    expect(box.top).toBeGreaterThanOrEqual(10);
    expect(box.top).toBeLessThanOrEqual(12);
    expect(box.width).toBeGreaterThanOrEqual(196);
    expect(box.width).toBeLessThanOrEqual(200);
    expect(box.height).toBeGreaterThanOrEqual(146);
    expect(box.height).toBeLessThanOrEqual(150);
  });

  it('tolerates a few noisy pixels in a bar, and noise within the threshold', () => {
    const width = 100;
    const height = 50;
    const data = new Uint8Array(width * height * 3).fill(20);
    for (let y = 0; y < height; y++) {
      for (let x = 30; x < 70; x++) data.fill(200, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    data[(10 * width + 5) * 3] = 30; // within the threshold of 16
    data[(3 * width + 80) * 3 + 1] = 255; // one stray pixel in a 50-pixel column (under 1%? no: 2%)
    const box = uniformBorderBox(data, width, height, 3);
    expect(box.left).toBe(30);
    expect(box.top).toBe(0);
    expect(box.height).toBe(height);
    // Column 80 has one pixel of 50 off (2% > 1%): it stops the right-hand trim there.
    expect(box.left + box.width).toBe(81);
  });

  it('leaves a picture without bars whole', async () => {
    const { data, width, height } = await raw(readFileSync(FIXTURES + 'chelsea-cat.jpg'));
    expect(uniformBorderBox(data, width, height, 3)).toEqual({ left: 0, top: 0, width, height });
  });

  it('decodes a pillarboxed photo to nearly the same raster as the photo alone', async () => {
    const photo = await sharp(readFileSync(FIXTURES + 'brick-wall.jpg'))
      .resize(300, 300)
      .toBuffer();
    const framed = await sharp(photo)
      .extend({ left: 150, right: 150, background: '#000000' })
      .jpeg({ quality: 90 })
      .toBuffer();
    const [a, b] = await Promise.all([decodeToSquareRgb(photo, 64), decodeToSquareRgb(framed, 64)]);
    let diff = 0;
    for (let i = 0; i < a.data.length; i++) diff += Math.abs(a.data[i]! - b.data[i]!);
    // Mean absolute difference per channel: a few levels of JPEG noise, not black bars (which
    // would put a quarter of the raster about 100 levels off).
    expect(diff / a.data.length).toBeLessThan(8);
  });
});
