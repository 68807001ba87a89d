import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { EngineError } from '../../../src/engines/types.js';
import { imageToVideoEngine } from '../../../src/engines/video/imageToVideo.js';
import { cleanup, difference, FIXTURES, frame, input, media } from './helpers.js';

afterAll(cleanup);

const scene = join(FIXTURES, 'scene.jpg');

describe('image-to-video (camera move over a still)', () => {
  it('zooms into the image at the requested resolution and duration, keeping its aspect ratio', async () => {
    const out = await imageToVideoEngine.run(
      input(
        'image-to-video',
        { image: 'x', prompt: 'slow zoom in', duration: '3', resolution: '480p' },
        { media: [media('image', scene)] },
      ),
    );
    expect(out.type).toBe('video');
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height, info.videoCodec]).toEqual([854, 480, 'h264']);
    expect(info.durationSeconds).toBeGreaterThan(2.9);
    expect(info.durationSeconds).toBeLessThan(3.1);
    expect(info.hasAudio).toBe(true);
    const first = await frame(out.files[0]!.path, 0);
    const last = await frame(out.files[0]!.path, 71);
    expect(difference(first, last)).toBeGreaterThan(2);
    // Consecutive frames differ only a little: the move is smooth.
    const a = await frame(out.files[0]!.path, 36);
    const b = await frame(out.files[0]!.path, 37);
    expect(difference(a, b)).toBeLessThan(difference(first, last));
  });

  it('honours aspect_ratio 9:16', async () => {
    const out = await imageToVideoEngine.run(
      input(
        'image-to-video',
        { image: 'x', prompt: 'pan left', duration: '2', resolution: '480p', aspect_ratio: '9:16' },
        { media: [media('image', scene)] },
      ),
    );
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height]).toEqual([480, 854]);
  });

  it('rejects a video given as the image with an EngineError', async () => {
    await expect(
      imageToVideoEngine.run(
        input('image-to-video', { image: 'x' }, { media: [media('image', join(FIXTURES, 'clip.mp4'))] }),
      ),
    ).rejects.toBeInstanceOf(EngineError);
  });

  it('a truncated image (readable header, undecodable pixels) is an EngineError naming image, not a retried internal error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mediagen-truncated-'));
    try {
      const truncated = join(dir, 'truncated.png');
      await writeFile(truncated, (await readFile(join(FIXTURES, 'portrait.png'))).subarray(0, 300));
      const error = await imageToVideoEngine
        .run(input('image-to-video', { image: 'x' }, { media: [media('image', truncated)] }))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(EngineError);
      expect((error as Error).message).toMatch(/image/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
