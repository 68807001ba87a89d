import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { EngineError } from '../../../src/engines/types.js';
import { videoExtendEngine } from '../../../src/engines/video/videoExtend.js';
import { cleanup, difference, FIXTURES, frame, input, media } from './helpers.js';

afterAll(cleanup);

const clip = join(FIXTURES, 'clip.mp4'); // 320x240, 2 s = 48 frames at 24 fps

describe('video-extend (continuation from the last frame)', () => {
  it('adds duration seconds at the same size and frame rate, without a seam', async () => {
    const out = await videoExtendEngine.run(
      input(
        'video-extend',
        { image: 'x', prompt: 'zoom in slowly', duration: '2' },
        { media: [media('image', clip)] },
      ),
    );
    expect(out.type).toBe('video');
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height, info.fps]).toEqual([320, 240, 24]);
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.1);
    expect(info.hasAudio).toBe(true);
    const lastOfSource = await frame(out.files[0]!.path, 47);
    const firstAdded = await frame(out.files[0]!.path, 48);
    const end = await frame(out.files[0]!.path, 95);
    // The join is no bigger a change than the source's own frame-to-frame motion...
    const sourceStep = difference(await frame(clip, 46), await frame(clip, 47));
    expect(difference(lastOfSource, firstAdded)).toBeLessThanOrEqual(Math.max(3, sourceStep));
    // ...and the continuation really moves.
    expect(difference(firstAdded, end)).toBeGreaterThan(5);
  });

  it('extends a video without sound and gives it a soundtrack', async () => {
    const out = await videoExtendEngine.run(
      input(
        'video-extend',
        { image: 'x', duration: '1' },
        { media: [media('image', join(FIXTURES, 'clip-silent.mp4'))] },
      ),
    );
    const info = await probe(out.files[0]!.path);
    expect(info.hasAudio).toBe(true);
    expect(info.durationSeconds).toBeGreaterThan(2.9);
  });

  it('a truncated video whose last frame cannot be decoded is an EngineError naming image (no retries, no temp path)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mediagen-truncated-'));
    try {
      const truncated = join(dir, 'truncated.mp4');
      await writeFile(truncated, (await readFile(clip)).subarray(0, 20_000));
      const error = await videoExtendEngine
        .run(input('video-extend', { image: 'x' }, { media: [media('image', truncated)] }))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(EngineError);
      expect((error as Error).message).toMatch(/image/);
      expect((error as Error).message).not.toMatch(/mediagen-|\/tmp\//);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects an image given as the video with an EngineError', async () => {
    await expect(
      videoExtendEngine.run(
        input('video-extend', { image: 'x' }, { media: [media('image', join(FIXTURES, 'scene.jpg'))] }),
      ),
    ).rejects.toBeInstanceOf(EngineError);
  });
});
