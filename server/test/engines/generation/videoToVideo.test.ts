import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { EngineError } from '../../../src/engines/types.js';
import { videoToVideoEngine } from '../../../src/engines/video/videoToVideo.js';
import { at, cleanup, FIXTURES, frame, input, media } from './helpers.js';

afterAll(cleanup);

const clip = join(FIXTURES, 'clip.mp4'); // 320x240, 2 s, 24 fps, with a 440 Hz tone
const silent = join(FIXTURES, 'clip-silent.mp4');
const run = (prompt: string, path = clip, extra: Record<string, unknown> = {}) =>
  videoToVideoEngine.run(
    input('video-to-video', { prompt, image: 'x', ...extra }, { media: [media('image', path)] }),
  );

describe('video-to-video (ffmpeg filters)', () => {
  it('black and white keeps size, length and audio; frames are grey', async () => {
    const out = await run('make it black and white');
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height, info.videoCodec]).toEqual([320, 240, 'h264']);
    expect(info.durationSeconds).toBeGreaterThan(1.9);
    expect(info.durationSeconds).toBeLessThan(2.2);
    expect(info.hasAudio).toBe(true);
    const f = await frame(out.files[0]!.path, 10);
    for (const [x, y] of [
      [40, 60],
      [160, 120],
      [280, 200],
    ] as const) {
      const [r, g, b] = at(f, x, y);
      expect(Math.max(Math.abs(r - g), Math.abs(g - b))).toBeLessThan(8);
    }
  });

  it('speed up halves the duration and keeps the audio', async () => {
    const info = await probe((await run('speed up 2x')).files[0]!.path);
    expect(info.durationSeconds).toBeGreaterThan(0.9);
    expect(info.durationSeconds).toBeLessThan(1.2);
    expect(info.hasAudio).toBe(true);
  });

  it('mirror and resolution: a mirrored frame at 480p', async () => {
    const out = await run('mirror', clip, { resolution: '480p' });
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height]).toEqual([640, 480]);
    const original = await frame(clip, 5);
    const mirrored = await frame(out.files[0]!.path, 5);
    // The source's left colour bar is now on the right (scaled 2x).
    const [r0, g0, b0] = at(original, 5, 120);
    const [r1, g1, b1] = at(mirrored, 629, 240);
    expect(Math.abs(r0 - r1) + Math.abs(g0 - g1) + Math.abs(b0 - b1)).toBeLessThan(60);
  });

  it('gives a silent source a silent track, and reverses it', async () => {
    const info = await probe((await run('play it in reverse', silent)).files[0]!.path);
    expect(info.hasAudio).toBe(true);
    expect(info.durationSeconds).toBeGreaterThan(1.9);
  });

  it('refuses a prompt with no known transformation, and an unreadable video', async () => {
    await expect(run('do something nice')).rejects.toBeInstanceOf(EngineError);
    await expect(run('blur', join(FIXTURES, 'scene.jpg'))).rejects.toBeInstanceOf(EngineError);
  });
});
