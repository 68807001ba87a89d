import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, faceSwapEngine } from '../../../src/engines/faces/index.js';
import { ffmpeg } from '../../../src/media/ffmpeg.js';
import { EngineError } from '../../../src/engines/types.js';
import { fixture, inner, meanDiff, raw, writeHopperFace } from './fixtures.js';

let dir: string;
let sourcePath: string;
let jobs = 0;

async function swap(targetPath: string) {
  const workDir = join(dir, `job-${jobs++}`);
  await mkdir(workDir);
  return faceSwapEngine.run({
    sourcePath,
    targetPath,
    targetMime: 'image/gif',
    workDir,
    signal: new AbortController().signal,
  });
}

/** An animated GIF made by ffmpeg from a photo: 4 frames at 5 fps (200 ms each), a slow pan. */
async function makeGif(photo: string, out: string): Promise<void> {
  await ffmpeg([
    ...['-loop', '1', '-framerate', '5', '-i', photo, '-frames:v', '4'],
    ...['-vf', "scale=240:240,crop=224:224:'n*4':8", out],
  ]);
}

async function page(path: string, index: number, out: string): Promise<string> {
  await sharp(path, { page: index }).png().toFile(out);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-gif-'));
  sourcePath = await writeHopperFace(dir);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('face swap into a GIF', () => {
  it('swaps every frame and keeps size, frame count and frame delays', async () => {
    const target = join(dir, 'astronaut.gif');
    await makeGif(fixture('portrait-astronaut.jpg'), target);
    const before = await sharp(target, { animated: true }).metadata();
    expect(before.pages).toBe(4);

    const out = await swap(target);
    expect(out.files[0]).toMatchObject({ mime: 'image/gif', ext: 'gif' });
    const after = await sharp(out.files[0]!.path, { animated: true }).metadata();
    expect(after.format).toBe('gif');
    expect(after.pages).toBe(before.pages);
    expect(after.width).toBe(before.width);
    expect(after.pageHeight).toBe(before.pageHeight);
    expect(after.delay).toEqual(before.delay);

    for (const index of [0, 3]) {
      const a = await page(target, index, join(dir, `before-${index}.png`));
      const b = await page(out.files[0]!.path, index, join(dir, `after-${index}.png`));
      const [face] = await detectFaces(a);
      expect(face).toBeDefined();
      expect(meanDiff(await raw(a), await raw(b), inner(face!.box))).toBeGreaterThan(8);
    }
  }, 120_000);

  it('swaps each frame with its own faces (frames are detected ahead while earlier ones are swapped)', async () => {
    // Frames alternate between a portrait and a photo without a person: a frame swapped with the faces
    // of the frame before or after it would show a face pasted on the coffee cup.
    const side = 224;
    const portrait = await sharp(fixture('portrait-astronaut.jpg'))
      .resize(side, side)
      .ensureAlpha()
      .raw()
      .toBuffer();
    const coffee = await sharp(fixture('no-face-coffee.jpg'))
      .resize(side, side)
      .ensureAlpha()
      .raw()
      .toBuffer();
    const target = join(dir, 'alternating.gif');
    await sharp(Buffer.concat([portrait, coffee, portrait, coffee]), {
      raw: { width: side, height: side * 4, channels: 4, pageHeight: side },
    })
      .gif({ delay: [200, 200, 200, 200], loop: 0 })
      .toFile(target);

    const out = await swap(target);
    const whole = { x: 0, y: 0, width: side, height: side };
    for (const index of [0, 1, 2, 3]) {
      const a = await raw(await page(target, index, join(dir, `alt-before-${index}.png`)));
      const b = await raw(await page(out.files[0]!.path, index, join(dir, `alt-after-${index}.png`)));
      if (index % 2 === 0) {
        const [face] = await detectFaces(join(dir, `alt-before-${index}.png`));
        expect(meanDiff(a, b, inner(face!.box)), `frame ${index}`).toBeGreaterThan(8);
      } else {
        // Only the GIF's own re-encoding touches a frame without a face.
        expect(meanDiff(a, b, whole), `frame ${index}`).toBeLessThan(3);
      }
    }
  }, 120_000);

  it('fails with an EngineError when no frame shows a face', async () => {
    const target = join(dir, 'coffee.gif');
    await makeGif(fixture('no-face-coffee.jpg'), target);
    const error = await swap(target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
  }, 120_000);
});
