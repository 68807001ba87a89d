/**
 * video-to-video: the prompt's transformation applied to the source video through ffmpeg filters
 * (colour grades, black and white, sepia, blur, sharpen, invert, mirror, edges, cartoon, pixelate,
 * speed up, slow down, reverse), several in one prompt in the order named. The audio is kept and
 * follows speed changes and reversal; a source without audio gets a silent track. Output at the
 * requested resolution (short side) or the source's size, at the source's frame rate.
 */
import { join } from 'node:path';
import { PromptWords } from '../image/promptWords.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { even, shortSide, videoSizeLike } from './dimensions.js';
import { mp4File, mp4OutputArgs, probeVideo, requireMedia, runFfmpeg } from './encode.js';
import { effectsFromPrompt, VIDEO_EFFECTS } from './videoEffects.js';

const MAX_SECONDS = 120;
const MAX_REVERSE_SECONDS = 30;

async function run(input: EngineInput): Promise<EngineOutput> {
  const media = requireMedia(input.media, 'image', 'video');
  const info = await probeVideo(media, input.signal);
  if (info.durationSeconds > MAX_SECONDS) {
    throw new EngineError(
      `the video at image is ${info.durationSeconds.toFixed(0)} s long; at most ${MAX_SECONDS} s is supported`,
    );
  }
  const prompt = new PromptWords(String(input.params.prompt ?? ''));
  const effects = effectsFromPrompt(prompt);
  if (effects.length === 0) {
    const known = VIDEO_EFFECTS.map((e) => e.name).join(', ');
    throw new EngineError(`the prompt names no transformation this model knows; try one of: ${known}`);
  }
  if (effects.some((e) => e.buffersWholeClip) && info.durationSeconds > MAX_REVERSE_SECONDS) {
    throw new EngineError(`reverse works on videos up to ${MAX_REVERSE_SECONDS} s`);
  }
  const size = input.params.resolution
    ? videoSizeLike(info.width, info.height, shortSide(input.params.resolution))
    : { width: even(info.width), height: even(info.height) };
  const fps = Math.min(60, Math.max(1, Math.round(info.fps ?? 24)));
  const timeScale = effects.reduce((k, e) => k * (e.timeScale ?? 1), 1);
  const duration = Math.max(0.1, info.durationSeconds * timeScale);

  const vchain = [
    ...effects.map((e) => e.video),
    `scale=${size.width}:${size.height}`,
    'setsar=1',
    'format=yuv420p',
  ];
  const args = ['-i', media.path];
  let graph = `[0:v]${vchain.join(',')}[v]`;
  if (info.hasAudio) {
    const achain = effects.filter((e) => e.audio).map((e) => e.audio);
    graph += `;[0:a]${[...achain, 'aresample=44100'].join(',')}[a]`;
  } else {
    args.push('-f', 'lavfi', '-t', duration.toFixed(3), '-i', 'anullsrc=r=44100:cl=stereo');
    graph += `;[1:a]anull[a]`;
  }
  const out = join(input.workDir, 'video.mp4');
  await runFfmpeg(
    [...args, '-filter_complex', graph, '-map', '[v]', '-map', '[a]', ...mp4OutputArgs(out, duration, fps)],
    input.signal,
  );
  return { type: 'video', files: [mp4File(out)] };
}

export const videoToVideoEngine: GenerationEngine = {
  id: 'video-filters',
  tasks: ['video-to-video'],
  run,
};
