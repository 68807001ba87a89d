import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { textToVideoEngine } from '../../../src/engines/video/textToVideo.js';
import { cleanup, difference, frame, input, luminance } from './helpers.js';

afterAll(cleanup);

const HAS_PROC = existsSync('/proc/self/stat');

/** PIDs of ffmpeg processes whose parent is this test process (read from /proc; Linux). */
function ffmpegChildren(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm.includes('ffmpeg')) found.push(pid);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describe('text-to-video (animated scene painter)', () => {
  it('makes an H.264 MP4 with sound at the exact size and duration, with a moving camera', async () => {
    const out = await textToVideoEngine.run(
      input('text-to-video', {
        prompt: 'a lake among mountains at noon, pan right',
        duration: '4',
        resolution: '480p',
      }),
    );
    expect(out.type).toBe('video');
    const file = out.files[0]!;
    expect([file.mime, file.ext]).toEqual(['video/mp4', 'mp4']);
    const info = await probe(file.path);
    expect(info.videoCodec).toBe('h264');
    expect([info.width, info.height]).toEqual([854, 480]);
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.1);
    expect(info.hasAudio).toBe(true);
    expect(info.fps).toBe(24);
    const first = await frame(file.path, 0);
    const last = await frame(file.path, 90);
    expect(difference(first, last)).toBeGreaterThan(2);
  });

  it('honours 9:16 and 1:1 and changes the light over a sunset', async () => {
    const tall = await textToVideoEngine.run(
      input('text-to-video', {
        prompt: 'sunset over the sea',
        duration: '4',
        resolution: '480p',
        aspect_ratio: '9:16',
      }),
    );
    const info = await probe(tall.files[0]!.path);
    expect([info.width, info.height]).toEqual([480, 854]);
    const early = luminance(await frame(tall.files[0]!.path, 2));
    const late = luminance(await frame(tall.files[0]!.path, 94));
    expect(late).toBeLessThan(early - 5);

    const square = await textToVideoEngine.run(
      input('text-to-video', {
        prompt: 'a snowy forest',
        duration: '4',
        resolution: '480p',
        aspect_ratio: '1:1',
      }),
    );
    const sq = await probe(square.files[0]!.path);
    expect([sq.width, sq.height]).toEqual([480, 480]);
  });

  it('kills ffmpeg and rejects when the job is aborted', async () => {
    const controller = new AbortController();
    const job = textToVideoEngine.run(
      input(
        'text-to-video',
        { prompt: 'rain in the city', duration: '15', resolution: '720p' },
        { signal: controller.signal },
      ),
    );
    job.catch(() => undefined);
    if (!HAS_PROC) {
      // Without /proc the children cannot be listed: check the rejection only.
      setTimeout(() => controller.abort(new Error('cancelled')), 2000);
      await expect(job).rejects.toThrow('cancelled');
      return;
    }
    // Abort once ffmpeg is running (a child of this test process).
    for (let i = 0; i < 300 && !ffmpegChildren().length; i++) await sleep(100);
    expect(ffmpegChildren().length).toBeGreaterThan(0);
    controller.abort(new Error('cancelled'));
    await expect(job).rejects.toThrow('cancelled');
    for (let i = 0; i < 50 && ffmpegChildren().length; i++) await sleep(100);
    expect(ffmpegChildren()).toEqual([]);
  });
});
