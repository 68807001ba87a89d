import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, faceSwapEngine } from '../../../src/engines/faces/index.js';
import { EngineError, type FaceSwapInput } from '../../../src/engines/types.js';
import { fixture, inner, meanDiff, raw, writeHopperFace } from './fixtures.js';

let dir: string;
let sourcePath: string;
let jobs = 0;

async function swap(targetPath: string, targetMime: string, sourceFace = sourcePath) {
  const workDir = join(dir, `job-${jobs++}`);
  await mkdir(workDir);
  const input: FaceSwapInput = {
    sourcePath: sourceFace,
    targetPath,
    targetMime,
    workDir,
    signal: new AbortController().signal,
  };
  return faceSwapEngine.run(input);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-swap-'));
  sourcePath = await writeHopperFace(dir);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('face swap into a still image', () => {
  it('changes the face of a single portrait and keeps size, format and the rest of the picture', async () => {
    const target = fixture('portrait-astronaut.jpg');
    const out = await swap(target, 'image/jpeg');
    expect(out.type).toBe('image');
    expect(out.files).toHaveLength(1);
    const file = out.files[0]!;
    expect(file).toMatchObject({ mime: 'image/jpeg', ext: 'jpeg' });
    expect(file.path.startsWith(dir)).toBe(true);
    const meta = await sharp(file.path).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 512 });

    const before = await raw(target);
    const after = await raw(file.path);
    const [face] = await detectFaces(target);
    // Inside the face: clearly different pixels (a different person's features).
    expect(meanDiff(before, after, inner(face!.box))).toBeGreaterThan(8);
    // Far from the face (the bottom third: suit, helmet): only JPEG re-encoding noise.
    expect(meanDiff(before, after, { x: 0, y: 340, width: 512, height: 172 })).toBeLessThan(3);
  });

  it('puts the source face into every face of the group photo (png in, png out)', async () => {
    const target = join(dir, 'group.png');
    await sharp(fixture('group-three.jpg')).png().toFile(target);
    const faces = await detectFaces(target);
    expect(faces).toHaveLength(3);
    const out = await swap(target, 'image/png');
    expect(out.files[0]).toMatchObject({ mime: 'image/png', ext: 'png' });
    const before = await raw(target);
    const after = await raw(out.files[0]!.path);
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    for (const face of faces) expect(meanDiff(before, after, inner(face.box))).toBeGreaterThan(5);
    // The grey background strip between and around the portraits is untouched (lossless png).
    expect(meanDiff(before, after, { x: 0, y: 0, width: before.width, height: 8 })).toBe(0);
  });

  it('keeps a png target alpha channel and writes webp for webp', async () => {
    const withAlpha = join(dir, 'alpha.png');
    await sharp(fixture('portrait-astronaut.jpg')).ensureAlpha(0.8).png().toFile(withAlpha);
    const out = await swap(withAlpha, 'image/png');
    const meta = await sharp(out.files[0]!.path).metadata();
    expect(meta.hasAlpha).toBe(true);
    const alpha = await sharp(out.files[0]!.path).extractChannel(3).raw().toBuffer();
    expect(alpha.every((v) => v === 204)).toBe(true);

    const webp = join(dir, 'target.webp');
    await sharp(fixture('portrait-astronaut.jpg')).webp().toFile(webp);
    const outWebp = await swap(webp, 'image/webp');
    expect(outWebp.files[0]).toMatchObject({ mime: 'image/webp', ext: 'webp' });
    expect((await sharp(outWebp.files[0]!.path).metadata()).format).toBe('webp');
  });

  it('fails with an EngineError naming the reason when the target has no face', async () => {
    const error = await swap(fixture('no-face-coffee.jpg'), 'image/jpeg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/no face found in target_media/i);
  });

  it('fails with an EngineError when the source has no face', async () => {
    const source = join(dir, 'cat-source.jpg');
    await copyFile(fixture('no-face-cat.jpg'), source);
    const error = await swap(fixture('portrait-astronaut.jpg'), 'image/jpeg', source).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/no face found in source_face_url/i);
  });

  it('rejects an unsupported target type with an EngineError', async () => {
    const error = await swap(fixture('portrait-astronaut.jpg'), 'audio/mpeg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
  });
});
