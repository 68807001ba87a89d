import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageToImageEngine } from '../../../src/engines/image/imageToImage.js';
import { EngineError } from '../../../src/engines/types.js';
import { at, cleanup, input, luminance, media, pixels, workDir, type Pixels } from './helpers.js';

afterAll(cleanup);

// A 200x100 test card: left half red-to-orange, right half blue, a white square near the top left.
let source: string;
let original: Pixels;
beforeAll(async () => {
  const dir = workDir();
  source = join(dir, 'card.png');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">` +
    `<defs><linearGradient id="g"><stop offset="0" stop-color="#c82020"/><stop offset="1" stop-color="#e08030"/></linearGradient></defs>` +
    `<rect width="100" height="100" fill="url(#g)"/><rect x="100" width="100" height="100" fill="#2040c0"/>` +
    `<rect x="10" y="10" width="20" height="20" fill="#ffffff"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(source);
  original = await pixels(source);
});

async function edit(prompt: string, params: Record<string, unknown> = {}): Promise<Pixels> {
  const out = await imageToImageEngine.run(
    input(
      'image-to-image',
      { prompt, image: 'http://example.test/card.png', ...params },
      { media: [media('image', source)] },
    ),
  );
  expect(out.type).toBe('image');
  expect(out.files).toHaveLength(1);
  return pixels(out.files[0]!.path);
}

describe('image-to-image (sharp edits)', () => {
  it('black and white: every pixel has r = g = b', async () => {
    const p = await edit('make it black and white');
    expect([p.width, p.height]).toEqual([200, 100]);
    for (let i = 0; i < p.data.length; i += 3) {
      expect(p.data[i]).toBe(p.data[i + 1]);
      expect(p.data[i + 1]).toBe(p.data[i + 2]);
    }
  });

  it('mirror flips left and right', async () => {
    const p = await edit('mirror it');
    expect(at(p, 20, 20)).toEqual(at(original, 179, 20));
    expect(at(p, 185, 50)[0]).toBeGreaterThan(150); // red side now on the right
    expect(at(p, 15, 50)[2]).toBeGreaterThan(150); // blue side now on the left
  });

  it('sepia warms a blue area: r > g > b', async () => {
    const [r, g, b] = at(await edit('sepia tone'), 150, 50);
    expect(r).toBeGreaterThan(g);
    expect(g).toBeGreaterThan(b);
  });

  it('invert gives 255 minus each channel', async () => {
    const p = await edit('invert the colours');
    const [r, g, b] = at(original, 150, 50);
    const [ir, ig, ib] = at(p, 150, 50);
    expect(Math.abs(ir - (255 - r)) + Math.abs(ig - (255 - g)) + Math.abs(ib - (255 - b))).toBeLessThan(6);
  });

  it('brighter raises and darker lowers the luminance', async () => {
    const base = luminance(original);
    expect(luminance(await edit('make it brighter'))).toBeGreaterThan(base + 10);
    expect(luminance(await edit('make it darker'))).toBeLessThan(base - 10);
  });

  it('blur softens the hard edge between the halves', async () => {
    const p = await edit('blur');
    const jump = (q: Pixels) => Math.abs(at(q, 99, 60)[2] - at(q, 100, 60)[2]);
    expect(jump(p)).toBeLessThan(jump(original) / 3);
  });

  it('rotate 90 degrees swaps width and height', async () => {
    const p = await edit('rotate 90 degrees');
    expect([p.width, p.height]).toEqual([100, 200]);
  });

  it('posterize leaves few distinct channel values', async () => {
    const p = await edit('posterize');
    expect(new Set(p.data).size).toBeLessThanOrEqual(4);
  });

  it('applies several edits from one prompt: black and white and mirrored', async () => {
    const p = await edit('black and white, then mirror it');
    expect(at(p, 20, 20)[0]).toBe(at(p, 20, 20)[2]);
    expect(at(p, 179, 20)).toEqual([255, 255, 255]);
  });

  it('crops to aspect_ratio 1:1 and resizes to the requested resolution', async () => {
    const square = await edit('sharpen', { aspect_ratio: '1:1' });
    expect([square.width, square.height]).toEqual([100, 100]);
    const wide = await edit('sharpen', { aspect_ratio: '16:9', resolution: '1k' });
    expect([wide.width, wide.height]).toEqual([1024, 576]);
  });

  it('enlarges to the resolution with pixel centres aligned (a 64 px picture to 1k: 16x)', async () => {
    // One white column at x = 7: centres aligned put it at (7 + 0.5) * 16 - 0.5 = 119.5; sharp's own
    // resize puts it half an output pixel further right (120).
    const path = join(workDir(), 'column.png');
    const data = Buffer.alloc(64 * 32 * 3);
    for (let y = 0; y < 32; y++) data.fill(255, (y * 64 + 7) * 3, (y * 64 + 8) * 3);
    await sharp(data, { raw: { width: 64, height: 32, channels: 3 } })
      .png()
      .toFile(path);
    const out = await imageToImageEngine.run(
      input(
        'image-to-image',
        { prompt: 'black and white', image: 'x', resolution: '1k' },
        { media: [media('image', path)] },
      ),
    );
    const p = await pixels(out.files[0]!.path);
    expect([p.width, p.height]).toEqual([1024, 512]);
    let sum = 0;
    let weight = 0;
    for (let x = 0; x < p.width; x++) {
      const v = at(p, x, 256)[0]!;
      sum += v * x;
      weight += v;
    }
    expect(Math.abs(sum / weight - 119.5)).toBeLessThan(0.1);
  });

  it('pads instead of cropping when asked, keeping the whole picture', async () => {
    const p = await edit('pad to fit', { aspect_ratio: '1:1' });
    expect([p.width, p.height]).toEqual([200, 200]);
    expect(at(p, 100, 10)).toEqual([0, 0, 0]); // letterbox bar
    // Padded and enlarged (1k): the bars stay black, the picture fills the middle band.
    const big = await edit('pad to fit', { aspect_ratio: '1:1', resolution: '1k' });
    expect([big.width, big.height]).toEqual([1024, 1024]);
    expect(at(big, 512, 100)).toEqual([0, 0, 0]);
    expect(at(big, 512, 924)).toEqual([0, 0, 0]);
    // Inside the blue half, the same colour as the unenlarged padded picture (x 5.12).
    const small = at(p, 175, 100);
    at(big, 896, 512).forEach((v, i) => expect(Math.abs(v - small[i]!)).toBeLessThanOrEqual(4));
    expect(small[2]).toBeGreaterThan(small[0]! + 50); // and it is blue
  });

  it('writes the requested output_format', async () => {
    const out = await imageToImageEngine.run(
      input(
        'image-to-image',
        { prompt: 'vivid', image: 'x', output_format: 'webp' },
        { media: [media('image', source)] },
      ),
    );
    expect((await sharp(out.files[0]!.path).metadata()).format).toBe('webp');
    expect(out.files[0]!.mime).toBe('image/webp');
  });

  it('rejects an input that is not an image with an EngineError', async () => {
    const bad = join(workDir(), 'not-an-image.txt');
    writeFileSync(bad, 'hello, I am text');
    await expect(
      imageToImageEngine.run(
        input('image-to-image', { prompt: 'blur', image: 'x' }, { media: [media('image', bad)] }),
      ),
    ).rejects.toBeInstanceOf(EngineError);
  });
});
