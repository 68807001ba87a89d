import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationEngine } from '../../../src/engines/moderation/index.js';
import { VideoDecodeError } from '../../../src/engines/moderation/videoFrames.js';
import { ffmpeg } from '../../../src/media/ffmpeg.js';
import { FIXTURES, ORDINARY_PHOTOS } from './fixtures.js';

let dir: string;
let video: string;
const PHOTOS = ORDINARY_PHOTOS.slice(0, 8);

/** A real 8-second 640x360 H.264 video: one second of each ordinary photo, with a silent audio track. */
async function buildVideo(path: string): Promise<void> {
  const inputs = PHOTOS.flatMap((name) => [
    '-loop',
    '1',
    '-t',
    '1',
    '-framerate',
    '25',
    '-i',
    FIXTURES + name,
  ]);
  const scaled = PHOTOS.map(
    (_, i) =>
      `[${i}:v]scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=25[v${i}]`,
  );
  const concat = `${PHOTOS.map((_, i) => `[v${i}]`).join('')}concat=n=${PHOTOS.length}:v=1:a=0[out]`;
  await ffmpeg([
    ...inputs,
    '-f',
    'lavfi',
    '-t',
    String(PHOTOS.length),
    '-i',
    'anullsrc=r=44100:cl=mono',
    '-filter_complex',
    [...scaled, concat].join(';'),
    '-map',
    '[out]',
    '-map',
    `${PHOTOS.length}:a`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    path,
  ]);
}

describe('video moderation end to end (ffmpeg frames -> nsfwjs)', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mediagen-moderation-video-'));
    video = join(dir, 'photos.mp4');
    await Promise.all([buildVideo(video), moderationEngine.warmUp()]);
  }, 180_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('samples max_frames evenly spaced frames of a video of ordinary photos and flags none', async () => {
    const result = await moderationEngine.scoreVideo(video, { policy: 'nsfw', threshold: 0.5, maxFrames: 8 });
    expect(result.framesChecked).toBe(8);
    expect(result.frames.map((f) => f.timestamp)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]);
    for (const f of result.frames) expect(f.score).toBeLessThan(0.1); // same bound as the photos themselves
    expect(result.score).toBe(Math.max(...result.frames.map((f) => f.score)));
    // Different photos give different scores: the frames really are different pictures.
    expect(new Set(result.frames.map((f) => f.score)).size).toBeGreaterThan(1);
  });

  it('stops at the first frame that reaches the threshold (threshold 0: one frame)', async () => {
    const result = await moderationEngine.scoreVideo(video, { policy: 'nsfw', threshold: 0, maxFrames: 8 });
    expect(result.framesChecked).toBe(1);
    expect(result.frames).toHaveLength(1);
    expect(result.frames[0]!.timestamp).toBe(0.5);
  });

  it('honours max_frames', async () => {
    const one = await moderationEngine.scoreVideo(video, { policy: 'nsfw', threshold: 0.5, maxFrames: 1 });
    expect(one.frames.map((f) => f.timestamp)).toEqual([4]);
    const three = await moderationEngine.scoreVideo(video, { policy: 'nsfw', threshold: 0.5, maxFrames: 3 });
    expect(three.frames.map((f) => f.timestamp)).toEqual([1.333, 4, 6.667]);
  });

  it('answers violence and hate 0.01 for video frames without legible text (OCR of each frame)', async () => {
    const result = await moderationEngine.scoreVideo(video, {
      policy: 'violence',
      threshold: 0.5,
      maxFrames: 4,
    });
    expect(result.framesChecked).toBe(4);
    expect(result.score).toBe(0.01);
  });

  it('rejects a file that is not a video with VideoDecodeError', async () => {
    const bogus = join(dir, 'bogus.mp4');
    await writeFile(bogus, 'this is not a video');
    await expect(
      moderationEngine.scoreVideo(bogus, { policy: 'nsfw', threshold: 0.5, maxFrames: 8 }),
    ).rejects.toBeInstanceOf(VideoDecodeError);
  });
});
