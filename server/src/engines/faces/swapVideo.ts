/**
 * Face swap into every frame of a video (mp4, webm, mkv). One ffmpeg decodes the target to raw RGB
 * frames on a pipe; each frame is detected at reduced size (in the detector's worker, one frame ahead of
 * the frame being swapped here) and swapped with the prepared source face; a second ffmpeg encodes the
 * frames at the target's frame rate and size into the target's container, copying the target's audio
 * stream untouched. Frames without a face pass through unchanged; a video
 * with no face in any frame fails.
 */
import { join } from 'node:path';
import { probe } from '../../media/ffmpeg.js';
import { EngineError, type EngineOutput } from '../types.js';
import { findFaces } from './faceDetector.js';
import type { FaceGeometry } from './faceGeometry.js';
import type { SourceFace } from './sourceFace.js';
import { spawnFfmpeg } from './spawnFfmpeg.js';
import { swapFrame } from './swapFrame.js';
import type { VideoContainer } from './videoContainer.js';

/** Longest side a video frame is scaled to for detection (the swap itself is done at full size). */
export const VIDEO_DETECT_MAX_SIDE = 640;

export interface VideoSwapStats {
  frames: number;
  framesWithFaces: number;
}

export async function swapVideo(
  source: SourceFace,
  targetPath: string,
  container: VideoContainer,
  workDir: string,
  signal: AbortSignal,
  stats?: VideoSwapStats,
): Promise<EngineOutput> {
  let info;
  try {
    info = await probe(targetPath, signal);
  } catch {
    signal.throwIfAborted();
    throw new EngineError('target_media could not be read as a video');
  }
  const { width, height, fps } = info;
  if (!info.hasVideo || !width || !height) throw new EngineError('target_media has no video stream');
  const rate = fps && Number.isFinite(fps) && fps > 0 ? fps : 25;
  const path = join(workDir, `face-swap.${container.ext}`);

  const decoder = spawnFfmpeg(
    ['-i', targetPath, '-map', '0:v:0', '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    signal,
  );
  const encoder = spawnFfmpeg(
    [
      ...[
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${width}x${height}`,
        '-r',
        String(rate),
        '-i',
        'pipe:0',
      ],
      ...['-i', targetPath, '-map', '0:v:0', '-map', '1:a?', '-c:a', 'copy', '-r', String(rate)],
      ...container.videoArgs,
      // 4:2:0 chroma needs even sizes; a video of odd width or height keeps its size in 4:4:4.
      ...(width % 2 || height % 2 ? ['-pix_fmt', 'yuv444p'] : []),
      path,
    ],
    signal,
  );
  encoder.child.stdin.on('error', () => undefined);

  const frameBytes = width * height * 3;
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  let frames = 0;
  let framesWithFaces = 0;

  /** The frame whose detection is under way, not yet swapped. */
  let pending: { data: Uint8Array; faces: Promise<FaceGeometry[]> } | undefined;
  const detect = (data: Uint8Array) => {
    const faces = findFaces(
      { data, width, height },
      { maxSide: VIDEO_DETECT_MAX_SIDE, tiles: false },
      signal,
    );
    // Awaited when the frame's turn comes; until then a failure must not count as unhandled.
    faces.catch(() => undefined);
    return { data, faces };
  };
  const swapAndWrite = async ({ data, faces: found }: NonNullable<typeof pending>) => {
    const image = { data, width, height };
    const faces = (await found).filter((f) => f.mesh.length > 0);
    if (faces.length > 0 && swapFrame(image, faces, source) > 0) framesWithFaces++;
    frames++;
    if (!encoder.child.stdin.write(data)) {
      await new Promise<void>((resolve, reject) => {
        encoder.child.stdin.once('drain', resolve);
        encoder.done.catch(reject);
      });
    }
  };

  try {
    for await (const chunk of decoder.child.stdout as AsyncIterable<Buffer>) {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(frameBytes - filled, chunk.length - offset);
        frame.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === frameBytes) {
          // The next frame's detection runs in the detector's worker while this thread swaps and
          // writes the frame before it (findFaces sends the worker a copy of the pixels).
          const previous = pending;
          pending = detect(frame);
          if (previous) await swapAndWrite(previous);
          frame = new Uint8Array(frameBytes);
          filled = 0;
        }
      }
    }
    if (pending) await swapAndWrite(pending);
    await decoder.done;
    encoder.child.stdin.end();
    await encoder.done;
  } catch (error) {
    decoder.child.kill('SIGKILL');
    encoder.child.kill('SIGKILL');
    signal.throwIfAborted();
    if (error instanceof EngineError) throw error;
    // ffmpeg's words are useful to the client, the server's file paths are not.
    const reason = (error as Error).message.replace(/\/[^\s:'"]+/g, '<file>');
    throw new EngineError(`video face swap failed: ${reason}`);
  }
  if (stats) Object.assign(stats, { frames, framesWithFaces });
  if (frames === 0) throw new EngineError('target_media has no decodable video frames');
  if (framesWithFaces === 0)
    throw new EngineError('No face found in any frame of target_media: nothing to swap');
  return { type: 'video', files: [{ path, mime: container.mime, ext: container.ext }] };
}
