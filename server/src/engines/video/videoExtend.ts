/**
 * video-extend: the video continued by `duration` seconds (default 5) from its last frame. The
 * continuation starts on exactly that frame and moves the camera on from it (zoom, pan or tilt from
 * the prompt) at the same size and frame rate, so the join has no visible seam; the source's audio
 * continues into an ambient bed read from the prompt, cross-faded. H.264/AAC MP4.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { renderAmbience } from '../audio/ambience.js';
import { sceneFromPrompt } from '../image/sceneFromPrompt.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { cameraMoveFromPrompt } from './cameraMove.js';
import { even } from './dimensions.js';
import {
  mp4File,
  mp4OutputArgs,
  probeVideo,
  requireMedia,
  runFfmpeg,
  seconds,
  writeSoundtrack,
} from './encode.js';
import { zoompanFilter } from './kenBurns.js';

const MAX_SOURCE_SECONDS = 120;

async function run(input: EngineInput): Promise<EngineOutput> {
  const media = requireMedia(input.media, 'image', 'video');
  const info = await probeVideo(media, input.signal);
  if (info.durationSeconds > MAX_SOURCE_SECONDS) {
    throw new EngineError(
      `the video at image is ${info.durationSeconds.toFixed(0)} s long; at most ${MAX_SOURCE_SECONDS} s is supported`,
    );
  }
  const extra = seconds(input.params.duration, 5, 30);
  const prompt = String(input.params.prompt ?? '');
  const width = even(info.width);
  const height = even(info.height);
  const fps = Math.min(60, Math.max(1, Math.round(info.fps ?? 24)));

  // The exact last frame, as a still.
  const last = join(input.workDir, 'last-frame.png');
  await runFfmpeg(
    ['-sseof', '-1', '-i', media.path, '-an', '-update', '1', '-vsync', '0', last],
    input.signal,
  ).catch(() => {
    throw new EngineError('the last frame of the video at image could not be read');
  });
  // ffmpeg exits 0 without writing the still when no frame decodes (a truncated upload): that is the
  // client's video, not a fault to retry, and the next ffmpeg call would report our temp path.
  if (
    !(await stat(last).then(
      (s) => s.size > 0,
      () => false,
    ))
  ) {
    throw new EngineError('the last frame of the video at image could not be read (is the file truncated?)');
  }
  const frames = Math.round(extra * fps);
  const move = cameraMoveFromPrompt(prompt, input.seed);
  const total = info.durationSeconds + extra;
  const bed = await writeSoundtrack(
    input.workDir,
    renderAmbience(sceneFromPrompt(prompt || 'calm day', input.seed), extra + 1),
  );
  const args = ['-i', media.path, '-i', last, '-i', bed];
  const head = `[0:v]scale=${width}:${height},fps=${fps},setsar=1,format=yuv420p[a]`;
  // The still is enlarged 2x before zoompan so the continuation moves smoothly; its first frame
  // equals the source's last one (zoom 1, centred or at the pan's starting edge).
  const tail =
    `[1:v]scale=${width * 2}:${height * 2}:flags=bicubic,` +
    `${zoompanFilter(move, frames, width, height, fps, 0.6, true)},setsar=1,format=yuv420p[b]`;
  let graph = `${head};${tail};[a][b]concat=n=2:v=1:a=0[v]`;
  if (info.hasAudio) {
    graph += `;[0:a]aresample=44100,aformat=channel_layouts=stereo[sa];[2:a]aresample=44100[ba];[sa][ba]acrossfade=d=1[out]`;
  } else {
    graph += `;[2:a]adelay=${Math.round(info.durationSeconds * 1000)}|${Math.round(info.durationSeconds * 1000)}[out]`;
  }
  const out = join(input.workDir, 'video.mp4');
  await runFfmpeg(
    [...args, '-filter_complex', graph, '-map', '[v]', '-map', '[out]', ...mp4OutputArgs(out, total, fps)],
    input.signal,
  );
  return { type: 'video', files: [mp4File(out)] };
}

export const videoExtendEngine: GenerationEngine = {
  id: 'last-frame-continuation',
  tasks: ['video-extend'],
  run,
};
