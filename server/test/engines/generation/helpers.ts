/** Shared helpers for the generation engine tests: temp work dirs, inputs, decoding outputs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { TaskName } from '@mediagen/core';
import { ffmpeg } from '../../../src/media/ffmpeg.js';
import type { EngineInput, InputMedia } from '../../../src/engines/types.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/media');

const dirs: string[] = [];

export function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mediagen-engine-'));
  dirs.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const MIME: Record<string, [string, InputMedia['kind']]> = {
  png: ['image/png', 'image'],
  jpg: ['image/jpeg', 'image'],
  jpeg: ['image/jpeg', 'image'],
  webp: ['image/webp', 'image'],
  mp4: ['video/mp4', 'video'],
  mp3: ['audio/mpeg', 'audio'],
  txt: ['text/plain', 'image'],
};

/** An InputMedia for a file, as the worker would hand it over. */
export function media(field: string, path: string, index = 0): InputMedia {
  const ext = path.split('.').pop() ?? '';
  const [mime, kind] = MIME[ext] ?? ['application/octet-stream', 'image'];
  return { field, index, url: `http://example.test/${field}/${index}`, path, mime, kind };
}

export function input(
  task: TaskName,
  params: Record<string, unknown>,
  extra: Partial<EngineInput> = {},
): EngineInput {
  return {
    task,
    params,
    media: [],
    workDir: workDir(),
    seed: 1234,
    signal: new AbortController().signal,
    ...extra,
  };
}

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** RGB pixels of an image file. */
export async function pixels(path: string): Promise<Pixels> {
  const { data, info } = await sharp(path)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels === 1) {
    const rgb = Buffer.alloc(info.width * info.height * 3);
    for (let i = 0; i < info.width * info.height; i++) rgb.fill(data[i] ?? 0, i * 3, i * 3 + 3);
    return { data: rgb, width: info.width, height: info.height };
  }
  return { data, width: info.width, height: info.height };
}

/** RGB pixels of frame `n` of a video. */
export async function frame(path: string, n: number): Promise<Pixels & { data: Buffer }> {
  const { stdout } = await ffmpeg([
    '-i',
    path,
    '-vf',
    `select=eq(n\\,${n})`,
    '-vsync',
    '0',
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ]);
  const { stdout: size } = await ffmpeg([
    '-i',
    path,
    '-frames:v',
    '1',
    '-f',
    'image2pipe',
    '-vcodec',
    'png',
    'pipe:1',
  ]);
  const meta = await sharp(size).metadata();
  return { data: stdout, width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** Mean of each channel. */
export function means(p: Pixels): [number, number, number] {
  const sum = [0, 0, 0];
  const n = p.data.length / 3;
  for (let i = 0; i < p.data.length; i += 3) {
    sum[0] += p.data[i] ?? 0;
    sum[1] += p.data[i + 1] ?? 0;
    sum[2] += p.data[i + 2] ?? 0;
  }
  return [sum[0] / n, sum[1] / n, sum[2] / n] as [number, number, number];
}

export function luminance(p: Pixels): number {
  const [r, g, b] = means(p);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Mean absolute difference between two same-size pixel buffers (0..255). */
export function difference(a: Pixels, b: Pixels): number {
  let sum = 0;
  const n = Math.min(a.data.length, b.data.length);
  for (let i = 0; i < n; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / n;
}

/** RGB of pixel (x, y). */
export function at(p: Pixels, x: number, y: number): [number, number, number] {
  const i = (y * p.width + x) * 3;
  return [p.data[i] ?? 0, p.data[i + 1] ?? 0, p.data[i + 2] ?? 0];
}
