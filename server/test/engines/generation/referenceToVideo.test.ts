import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { referenceToVideoEngine } from '../../../src/engines/video/referenceToVideo.js';
import { at, cleanup, FIXTURES, frame, input, media, workDir } from './helpers.js';

afterAll(cleanup);

let red: string;
let blue: string;
beforeAll(async () => {
  const dir = workDir();
  red = join(dir, 'red.png');
  blue = join(dir, 'blue.png');
  await sharp({ create: { width: 320, height: 180, channels: 3, background: '#d02020' } })
    .png()
    .toFile(red);
  await sharp({ create: { width: 320, height: 180, channels: 3, background: '#2030d0' } })
    .png()
    .toFile(blue);
});

describe('reference-to-video (composed shots)', () => {
  it('orders shots by the prompt tags, fades between them and uses the reference audio', async () => {
    const out = await referenceToVideoEngine.run(
      input(
        'reference-to-video',
        { prompt: 'open on @Image2, then @Image1, music from @Audio1', duration: '4', resolution: '480p' },
        {
          media: [
            media('reference_images', red, 0),
            media('reference_images', blue, 1),
            media('reference_audios', join(FIXTURES, 'tone.mp3'), 0),
          ],
        },
      ),
    );
    expect(out.type).toBe('video');
    const path = out.files[0]!.path;
    const info = await probe(path);
    expect([info.width, info.height, info.videoCodec]).toEqual([854, 480, 'h264']);
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.1);
    expect(info.hasAudio).toBe(true);
    const [r1, , b1] = at(await frame(path, 24), 427, 240); // middle of shot 1
    const [r2, , b2] = at(await frame(path, 72), 427, 240); // middle of shot 2
    expect(b1).toBeGreaterThan(r1 + 80); // @Image2 (blue) first
    expect(r2).toBeGreaterThan(b2 + 80); // then @Image1 (red)
    const [r0, g0, b0] = at(await frame(path, 0), 427, 240);
    expect(r0 + g0 + b0).toBeLessThan(60); // fade in from black
  });

  it('mixes a reference video with an image at 9:16', async () => {
    const out = await referenceToVideoEngine.run(
      input(
        'reference-to-video',
        { prompt: '@Video1 then the picture', duration: '3', resolution: '480p', aspect_ratio: '9:16' },
        {
          media: [
            media('reference_images', red, 0),
            media('reference_videos', join(FIXTURES, 'clip.mp4'), 0),
          ],
        },
      ),
    );
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height]).toEqual([480, 854]);
    expect(info.hasAudio).toBe(true);
    const [r, , b] = at(await frame(out.files[0]!.path, 54), 240, 427);
    expect(r).toBeGreaterThan(b + 80); // the image comes second
  });

  it('makes a 5 s video by default, even from an audio reference alone', async () => {
    const out = await referenceToVideoEngine.run(
      input(
        'reference-to-video',
        { prompt: 'a video for @Audio1', resolution: '480p' },
        { media: [media('reference_audios', join(FIXTURES, 'tone.mp3'), 0)] },
      ),
    );
    const info = await probe(out.files[0]!.path);
    expect([info.width, info.height]).toEqual([854, 480]);
    expect(info.durationSeconds).toBeGreaterThan(4.9);
    expect(info.durationSeconds).toBeLessThan(5.1);
    expect(info.hasAudio).toBe(true);
  });
});
