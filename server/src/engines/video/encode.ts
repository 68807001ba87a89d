/**
 * The one way every video engine writes its output: H.264 (libx264, yuv420p, +faststart) with an AAC
 * stereo track in MP4, at a constant 24 frames per second unless the source dictates another rate.
 * Both the npm static ffmpeg 4.1 and Debian's ffmpeg have these encoders. ffmpeg is killed when the
 * job's signal aborts (execFile's `signal`).
 */
import { join } from 'node:path';
import { ffmpeg, probe, type ProbeResult } from '../../media/ffmpeg.js';
import { writeWav } from '../audio/wav.js';
import type { StereoBuffer } from '../audio/synth.js';
import { EngineError, type InputMedia, type OutputFile } from '../types.js';

export const FPS = 24;

/** Output options for an H.264 + AAC MP4 of exactly `seconds`. */
export function mp4OutputArgs(path: string, seconds: number, fps: number = FPS): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '44100',
    '-ac',
    '2',
    '-t',
    seconds.toFixed(3),
    '-movflags',
    '+faststart',
    path,
  ];
}

/** Runs ffmpeg; an abort surfaces as the signal's reason, a failure as an internal error. */
export async function runFfmpeg(args: string[], signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  try {
    await ffmpeg(args, signal);
  } catch (err) {
    signal.throwIfAborted();
    throw err;
  }
}

export function mp4File(path: string): OutputFile {
  return { path, mime: 'video/mp4', ext: 'mp4' };
}

/** Writes a synthesised soundtrack into the work directory and returns its path. */
export async function writeSoundtrack(
  workDir: string,
  audio: StereoBuffer,
  name = 'soundtrack.wav',
): Promise<string> {
  const path = join(workDir, name);
  await writeWav(path, audio.data, audio.sampleRate, 2);
  return path;
}

/** Probes an input video, turning an unreadable file into a message for the user. */
export async function probeVideo(
  media: InputMedia,
  signal: AbortSignal,
): Promise<ProbeResult & { width: number; height: number }> {
  let info: ProbeResult;
  try {
    info = await probe(media.path, signal);
  } catch {
    signal.throwIfAborted();
    throw new EngineError(`the video at ${media.field} could not be read (not a supported video file)`);
  }
  if (!info.hasVideo || !info.width || !info.height) {
    throw new EngineError(`the file at ${media.field} has no video stream`);
  }
  return { ...info, width: info.width, height: info.height };
}

/** The first input media of a field, or a user-facing error when it is missing. */
export function requireMedia(media: InputMedia[], field: string, kind?: InputMedia['kind']): InputMedia {
  const found = media.find((m) => m.field === field);
  if (!found) throw new EngineError(`${field} is required`);
  if (kind && found.kind !== kind) {
    throw new EngineError(
      `${field} must be ${kind === 'image' ? 'an image' : `a ${kind}`} (got ${found.mime})`,
    );
  }
  return found;
}

/** Seconds from a duration parameter ("5" or 5); more than `max` is refused with a clear message. */
export function seconds(value: unknown, fallback: number, max = 60): number {
  const n = Number(value ?? fallback);
  if (!Number.isFinite(n) || n <= 0) return fallback;
  if (n > max) throw new EngineError(`duration must be at most ${max} seconds for this model (got ${n})`);
  return n;
}
