/**
 * Samples evenly spaced frames of a video with ffprobe + ffmpeg (server/src/media/ffmpeg.ts picks the
 * binary). Frame i of n sits at the middle of the i-th of n equal slices of the duration,
 * (i + 0.5) * duration / n, so the first frame is not the usual black fade-in and the last is not past
 * the end. Each frame is one ffmpeg call with an input seek (-ss before -i, which jumps to the
 * nearest keyframe and decodes from there, fast on long videos) that writes the frame as a PNG no
 * larger than 512 px, which is then scored exactly like an uploaded image (same decoding, border trim
 * and resize). Frames are extracted lazily, two ahead of the scorer, so an early stop also stops
 * extraction.
 */
import { ffmpeg, probe } from '../../media/ffmpeg.js';
import type { FrameSource } from './scoreVideo.js';

/** The media is not a video ffmpeg can read (the caller turns it into a 400). */
export class VideoDecodeError extends Error {
  override name = 'VideoDecodeError';
}

export function frameTimestamps(durationSeconds: number, count: number): number[] {
  if (!(durationSeconds > 0)) return [0];
  return Array.from(
    { length: count },
    (_, i) => Math.round(((i + 0.5) * durationSeconds * 1000) / count) / 1000,
  );
}

const FRAME_MAX_SIDE = 512;

async function extractFrame(path: string, timestamp: number, signal?: AbortSignal): Promise<Buffer> {
  const args = [
    ...(timestamp > 0 ? ['-ss', timestamp.toFixed(3)] : []),
    '-i',
    path,
    '-frames:v',
    '1',
    '-an',
    '-sn',
    '-vf',
    `scale=w=${FRAME_MAX_SIDE}:h=${FRAME_MAX_SIDE}:force_original_aspect_ratio=decrease`,
    '-c:v',
    'png',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
  const { stdout } = await ffmpeg(args, signal).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    throw new VideoDecodeError(`no video frame could be decoded at ${timestamp}s`);
  });
  if (stdout.length < 8 || stdout.readUInt32BE(0) !== 0x89504e47) {
    throw new VideoDecodeError(`no video frame could be decoded at ${timestamp}s`);
  }
  return stdout;
}

/** A lazy source of `count` evenly spaced frames of the video at `path`, each a PNG. */
export async function sampleVideoFrames(
  path: string,
  count: number,
  signal?: AbortSignal,
): Promise<FrameSource> {
  let durationSeconds: number;
  try {
    const info = await probe(path, signal);
    if (!info.hasVideo) throw new VideoDecodeError('the file has no video stream');
    durationSeconds = info.durationSeconds;
  } catch (error) {
    if (error instanceof VideoDecodeError || signal?.aborted) throw error;
    // ffprobe's words name the file: the client is told about its video, not our temp path.
    const detail = (error as Error).message.split(path).join('video');
    throw new VideoDecodeError(`the video could not be read: ${detail}`);
  }
  const timestamps = frameTimestamps(durationSeconds, count);
  const pending = new Map<number, Promise<Buffer>>();
  // Stops prefetches nobody will read (after an early stop) as well as everything on the caller's abort.
  const stop = new AbortController();
  const extraction = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const start = (i: number) => {
    if (i >= timestamps.length || pending.has(i) || extraction.aborted) return;
    const p = extractFrame(path, timestamps[i]!, extraction);
    p.catch(() => undefined); // observed when awaited; a prefetch nobody awaits must not crash the process
    pending.set(i, p);
  };
  return {
    timestamps,
    async frame(i) {
      start(i);
      // Prefetch two frames ahead: ffmpeg (a separate process) seeks and decodes on the other core
      // while this frame is classified.
      start(i + 1);
      start(i + 2);
      const p = pending.get(i);
      if (!p) throw new Error(`frame ${i} is not available`);
      pending.delete(i);
      return p;
    },
    close() {
      stop.abort(new Error('frame sampling finished'));
    },
  };
}
