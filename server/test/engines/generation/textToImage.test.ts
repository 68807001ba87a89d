import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { textToImageEngine } from '../../../src/engines/image/textToImage.js';
import { EngineError } from '../../../src/engines/types.js';
import { join } from 'node:path';
import { cleanup, input, luminance, means, pixels, workDir } from './helpers.js';

afterAll(cleanup);

const run = (params: Record<string, unknown>, seed = 1234) =>
  textToImageEngine.run(input('text-to-image', params, { seed }));

describe('text-to-image (scene painter)', () => {
  it.each([
    ['1:1', 1024, 1024],
    ['16:9', 1024, 576],
    ['9:16', 576, 1024],
    ['4:3', 1024, 768],
    ['3:4', 768, 1024],
  ])('paints %s at 1k as exactly %ix%i', async (aspect_ratio, width, height) => {
    const out = await run({ prompt: 'hills under a blue sky', aspect_ratio, resolution: '1k' });
    expect(out.type).toBe('image');
    const meta = await sharp(out.files[0]!.path).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([width, height, 'png']);
  });

  it('makes the long side 2048 at 2k', async () => {
    const out = await run({
      prompt: 'a lake',
      aspect_ratio: '16:9',
      resolution: '2k',
      output_format: 'jpeg',
    });
    const meta = await sharp(out.files[0]!.path).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1152]);
  });

  it.each(['png', 'jpeg', 'webp'] as const)(
    'writes output_format %s with the matching MIME type',
    async (fmt) => {
      const out = await run({
        prompt: 'a forest',
        aspect_ratio: '4:3',
        resolution: '1k',
        output_format: fmt,
        quality: 'low',
      });
      const file = out.files[0]!;
      expect((await sharp(file.path).metadata()).format).toBe(fmt);
      expect(file.ext).toBe(fmt);
      expect(file.mime).toBe(`image/${fmt}`);
      expect(file.path.endsWith(`.${fmt}`)).toBe(true);
    },
  );

  it('maps quality to encoder effort: high-quality jpeg is larger than low', async () => {
    const size = async (quality: string) =>
      readFileSync(
        (await run({ prompt: 'a forest by a lake', output_format: 'jpeg', quality })).files[0]!.path,
      ).length;
    expect(await size('high')).toBeGreaterThan((await size('low')) * 1.2);
  });

  it('returns count distinct images', async () => {
    const out = await run({
      prompt: 'mountains at dawn',
      count: 3,
      aspect_ratio: '1:1',
      output_format: 'jpeg',
    });
    expect(out.files).toHaveLength(3);
    const bytes = out.files.map((f) => readFileSync(f.path).toString('base64'));
    expect(new Set(bytes).size).toBe(3);
  });

  it('is deterministic for the same prompt and seed, and varies with the seed', async () => {
    const params = { prompt: 'a castle by the sea at sunset with birds', aspect_ratio: '16:9' };
    const a = readFileSync((await run(params, 7)).files[0]!.path);
    const b = readFileSync((await run(params, 7)).files[0]!.path);
    const c = readFileSync((await run(params, 8)).files[0]!.path);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('follows the prompt: night is darker than sunny noon', async () => {
    const night = await pixels((await run({ prompt: 'a village in the hills at night' })).files[0]!.path);
    const noon = await pixels((await run({ prompt: 'a village in the hills at sunny noon' })).files[0]!.path);
    expect(luminance(night)).toBeLessThan(luminance(noon) * 0.6);
  });

  it('follows the prompt: the ocean is bluer than the desert', async () => {
    const ocean = means(await pixels((await run({ prompt: 'the open ocean at noon' })).files[0]!.path));
    const desert = means(
      await pixels((await run({ prompt: 'sand dunes in the desert at noon' })).files[0]!.path),
    );
    expect(ocean[2] - ocean[0]).toBeGreaterThan(desert[2] - desert[0] + 20);
  });

  it('attaches colour words to what they describe: a purple sky over green hills, and the reverse', async () => {
    const band = async (prompt: string, top: number) => {
      const file = (await run({ prompt: `${prompt} at noon`, aspect_ratio: '1:1' })).files[0]!.path;
      const strip = join(workDir(), 'strip.png');
      await sharp(file).extract({ left: 0, top, width: 1024, height: 150 }).toFile(strip);
      const [r, g, b] = means(await pixels(strip));
      return (r + b) / 2 - g; // > 0 purple-ish, < 0 green-ish
    };
    expect(await band('a purple sky over green hills', 20)).toBeGreaterThan(
      await band('a green sky over purple hills', 20),
    );
    expect(await band('a purple sky over green hills', 860)).toBeLessThan(
      await band('a green sky over purple hills', 860),
    );
  });

  it('refuses an empty prompt with an EngineError', async () => {
    await expect(run({ prompt: '  ' })).rejects.toBeInstanceOf(EngineError);
  });
});
