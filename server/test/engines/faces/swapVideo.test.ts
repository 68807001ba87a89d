import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, faceSwapEngine } from '../../../src/engines/faces/index.js';
import { ffmpeg, probe } from '../../../src/media/ffmpeg.js';
import { EngineError } from '../../../src/engines/types.js';
import { fixture, inner, meanDiff, raw, writeHopperFace } from './fixtures.js';

let dir: string;
let sourcePath: string;
let jobs = 0;

async function swap(targetPath: string, targetMime: string) {
  const workDir = join(dir, `job-${jobs++}`);
  await mkdir(workDir);
  return faceSwapEngine.run({
    sourcePath,
    targetPath,
    targetMime,
    workDir,
    signal: new AbortController().signal,
  });
}

/** A short clip made from a still photo: a slow pan (so frames differ), 12 fps, with a 440 Hz tone. */
async function makeClip(photo: string, out: string, codecs: string[], frames = 10): Promise<void> {
  await ffmpeg([
    ...['-loop', '1', '-framerate', '12', '-i', photo],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-vf', "scale=320:320,crop=288:288:'min(32,n*3)':16", '-frames:v', String(frames)],
    ...['-t', String(frames / 12), ...codecs, '-shortest', out],
  ]);
}

async function frameAt(video: string, index: number, out: string): Promise<string> {
  await ffmpeg(['-i', video, '-vf', `select=eq(n\\,${index})`, '-vsync', '0', '-frames:v', '1', out]);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-video-'));
  sourcePath = await writeHopperFace(dir);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('face swap into a video', () => {
  it('swaps every frame of an mp4 and keeps size, frame rate, frame count, audio and container', async () => {
    const target = join(dir, 'clip.mp4');
    await makeClip(fixture('portrait-astronaut.jpg'), target, [
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ]);
    const before = await probe(target);
    const out = await swap(target, 'video/mp4');
    expect(out.type).toBe('video');
    expect(out.files[0]).toMatchObject({ mime: 'video/mp4', ext: 'mp4' });
    const after = await probe(out.files[0]!.path);
    expect(after.formatName).toContain('mp4');
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    expect(after.fps).toBeCloseTo(before.fps!, 1);
    expect(Math.abs((after.frameCount ?? 0) - (before.frameCount ?? 0))).toBeLessThanOrEqual(1);
    expect(after.hasAudio).toBe(true);
    expect(after.audioCodec).toBe(before.audioCodec);
    expect(after.durationSeconds).toBeCloseTo(before.durationSeconds, 0);

    // First and last frame: the face changed, the edges of the frame did not (beyond re-encoding).
    for (const index of [0, 9]) {
      const a = await frameAt(target, index, join(dir, `before-${index}.png`));
      const b = await frameAt(out.files[0]!.path, index, join(dir, `after-${index}.png`));
      const [face] = await detectFaces(a);
      const pa = await raw(a);
      const pb = await raw(b);
      expect(meanDiff(pa, pb, inner(face!.box))).toBeGreaterThan(8);
      expect(meanDiff(pa, pb, { x: 0, y: 230, width: 288, height: 58 })).toBeLessThan(4);
    }
  }, 120_000);

  it('writes every frame in its own place (frames are detected ahead while earlier ones are swapped)', async () => {
    // A red square moves right along a black band under the photo: its position tells the frames apart.
    const target = join(dir, 'numbered.mp4');
    const frames = 16;
    await ffmpeg([
      ...['-loop', '1', '-framerate', '12', '-i', fixture('portrait-astronaut.jpg')],
      ...['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=12'],
      ...['-filter_complex', "[0:v]scale=288:256,pad=288:288:0:0:black[bg];[bg][1:v]overlay=x='n*16':y=266"],
      ...['-frames:v', String(frames), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', target],
    ]);
    const out = await swap(target, 'video/mp4');
    const size = 288 * 288 * 3;
    const squares = async (video: string, name: string) => {
      const rawFrames = join(dir, name);
      await ffmpeg(['-i', video, '-f', 'rawvideo', '-pix_fmt', 'rgb24', rawFrames]);
      const bytes = await readFile(rawFrames);
      expect(bytes.length).toBe(frames * size);
      // Per frame: the mean x of the red pixels in the band.
      return Array.from({ length: frames }, (_, frame) => {
        let sum = 0;
        let count = 0;
        for (let y = 268; y < 280; y++) {
          for (let x = 0; x < 288; x++) {
            const i = frame * size + (y * 288 + x) * 3;
            if (bytes[i]! > 150 && bytes[i + 1]! < 100 && bytes[i + 2]! < 100) {
              sum += x;
              count++;
            }
          }
        }
        return count > 0 ? sum / count : -1;
      });
    };
    const before = await squares(target, 'numbered-in.rgb');
    const after = await squares(out.files[0]!.path, 'numbered-out.rgb');
    // The input's frames are all told apart (the square moves on every frame)...
    for (let n = 1; n < frames; n++) expect(before[n]! - before[n - 1]!).toBeGreaterThan(4);
    // ... and each output frame shows the square where its own input frame had it.
    for (let n = 0; n < frames; n++) expect(Math.abs(after[n]! - before[n]!)).toBeLessThan(2);
  }, 120_000);

  it('keeps a webm a webm (VP8 + Opus in, VP9 + the same Opus out)', async () => {
    const target = join(dir, 'clip.webm');
    await makeClip(fixture('portrait-astronaut.jpg'), target, ['-c:v', 'libvpx', '-c:a', 'libopus'], 6);
    const out = await swap(target, 'video/webm');
    expect(out.files[0]).toMatchObject({ mime: 'video/webm', ext: 'webm' });
    const after = await probe(out.files[0]!.path);
    expect(after.formatName).toContain('webm');
    expect([after.width, after.height]).toEqual([288, 288]);
    expect(after.audioCodec).toBe('opus');
  }, 120_000);

  it('keeps an mkv an mkv, also without an audio track', async () => {
    const target = join(dir, 'clip.mkv');
    await ffmpeg([
      ...['-loop', '1', '-framerate', '8', '-i', fixture('portrait-hopper.jpg')],
      ...['-frames:v', '4', '-vf', 'scale=256:300', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', target],
    ]);
    const out = await swap(target, 'video/x-matroska');
    expect(out.files[0]).toMatchObject({ ext: 'mkv' });
    const after = await probe(out.files[0]!.path);
    expect(after.formatName).toContain('matroska');
    expect([after.width, after.height]).toEqual([256, 300]);
    expect(after.hasAudio).toBe(false);
  }, 120_000);

  it('keeps an odd frame size (H.264 in 4:4:4, since 4:2:0 needs even sizes)', async () => {
    const target = join(dir, 'odd.mkv');
    await ffmpeg([
      ...['-loop', '1', '-framerate', '8', '-i', fixture('portrait-hopper.jpg')],
      ...['-frames:v', '3', '-vf', 'scale=255:301', '-c:v', 'libx264', '-pix_fmt', 'yuv444p', target],
    ]);
    const out = await swap(target, 'video/x-matroska');
    const after = await probe(out.files[0]!.path);
    expect([after.width, after.height]).toEqual([255, 301]);
  }, 120_000);

  it('stops and rejects when the job is aborted mid-video', async () => {
    const target = join(dir, 'long.mp4');
    await makeClip(fixture('portrait-astronaut.jpg'), target, ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 60);
    const workDir = join(dir, 'aborted');
    await mkdir(workDir);
    const controller = new AbortController();
    const running = faceSwapEngine.run({
      sourcePath,
      targetPath: target,
      targetMime: 'video/mp4',
      workDir,
      signal: controller.signal,
    });
    // Abort once frames flow: the encoder has created its output file.
    for (let i = 0; i < 600 && !existsSync(join(workDir, 'face-swap.mp4')); i++) await sleep(100);
    expect(existsSync(join(workDir, 'face-swap.mp4'))).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow(/abort/i);
  }, 120_000);

  it('fails with an EngineError when no frame shows a face', async () => {
    const target = join(dir, 'coffee.mp4');
    await makeClip(fixture('no-face-coffee.jpg'), target, ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 4);
    const error = await swap(target, 'video/mp4').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/no face found in any frame/i);
  }, 120_000);
});
