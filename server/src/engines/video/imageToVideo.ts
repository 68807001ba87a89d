/**
 * image-to-video: the input image brought to life with a smooth camera move chosen from the prompt
 * (zoom in or out, pan left or right, tilt up or down; the seed picks one when the prompt names none),
 * at the requested resolution, aspect ratio (default: the image's own) and duration, with an ambient
 * soundtrack read from the prompt's words. H.264/AAC MP4.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { renderAmbience } from '../audio/ambience.js';
import { sceneFromPrompt } from '../image/sceneFromPrompt.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { cameraMoveFromPrompt } from './cameraMove.js';
import { shortSide, videoSize, videoSizeLike } from './dimensions.js';
import { FPS, mp4File, mp4OutputArgs, requireMedia, runFfmpeg, seconds, writeSoundtrack } from './encode.js';
import { prepareStill, zoompanFilter } from './kenBurns.js';

async function run(input: EngineInput): Promise<EngineOutput> {
  const media = requireMedia(input.media, 'image', 'image');
  const prompt = String(input.params.prompt ?? '');
  const d = seconds(input.params.duration, 5, 30);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(media.path).metadata();
  } catch {
    throw new EngineError('the image at image could not be read (not a supported image file)');
  }
  if (!meta.width || !meta.height) throw new EngineError('the image at image has no size');
  const short = shortSide(input.params.resolution);
  const upright = (meta.orientation ?? 1) >= 5;
  const [iw, ih] = upright ? [meta.height, meta.width] : [meta.width, meta.height];
  const { width, height } = input.params.aspect_ratio
    ? videoSize(String(input.params.aspect_ratio), short)
    : videoSizeLike(iw, ih, short);

  const still = join(input.workDir, 'still.png');
  // metadata() reads only the header: a truncated file gets this far and fails in the decode. That is
  // the client's file, not a fault worth retrying.
  await prepareStill(sharp(media.path).rotate(), width, height, still).catch(() => {
    input.signal.throwIfAborted();
    throw new EngineError('the image at image could not be decoded (is the file truncated or corrupt?)');
  });
  input.signal.throwIfAborted();
  const move = cameraMoveFromPrompt(prompt, input.seed);
  const frames = Math.round(d * FPS);
  const soundtrack = await writeSoundtrack(
    input.workDir,
    renderAmbience(sceneFromPrompt(prompt || 'calm day', input.seed), d),
  );
  const out = join(input.workDir, 'video.mp4');
  await runFfmpeg(
    [
      '-i',
      still,
      '-i',
      soundtrack,
      '-filter_complex',
      `[0:v]${zoompanFilter(move, frames, width, height, FPS)},setsar=1,format=yuv420p[v]`,
      '-map',
      '[v]',
      '-map',
      '1:a',
      ...mp4OutputArgs(out, d),
    ],
    input.signal,
  );
  return { type: 'video', files: [mp4File(out)] };
}

export const imageToVideoEngine: GenerationEngine = {
  id: 'ken-burns',
  tasks: ['image-to-video'],
  run,
};
