/**
 * text-to-image: the scene painter. Reads sky, light, land, water, objects and colours from the
 * prompt, paints them as SVG and rasterises with sharp at the exact size asked for. count > 1 gives
 * variations (the seed moves on per image); the first file becomes output_url, the rest output_urls.
 * A procedural stand-in, not a generative model (see docs/engines.md).
 */
import sharp from 'sharp';
import {
  EngineError,
  type EngineInput,
  type EngineOutput,
  type GenerationEngine,
  type OutputFile,
} from '../types.js';
import { imageSize } from './dimensions.js';
import { imageFormat, writeImage, type Quality } from './encodeImage.js';
import { paintScene } from './scenePainter.js';
import { sceneFromPrompt } from './sceneFromPrompt.js';

/** Rasterises the prompt's scene to a sharp pipeline of exactly width x height (RGB, no alpha). */
export function renderScene(prompt: string, seed: number, width: number, height: number): sharp.Sharp {
  const scene = sceneFromPrompt(prompt, seed);
  const svg = paintScene(scene, { width, height });
  return sharp(Buffer.from(svg), { density: 72 }).resize(width, height, { fit: 'fill' }).removeAlpha();
}

async function run(input: EngineInput): Promise<EngineOutput> {
  const prompt = String(input.params.prompt ?? '').trim();
  if (!prompt) throw new EngineError('prompt must not be empty');
  const { width, height } = imageSize(
    input.params.aspect_ratio as string | undefined,
    input.params.resolution as string | undefined,
  );
  const count = Math.max(1, Math.min(4, Number(input.params.count ?? 1) || 1));
  const format = imageFormat(input.params.output_format);
  const quality = (input.params.quality as Quality | undefined) ?? 'medium';
  const files: OutputFile[] = [];
  for (let i = 0; i < count; i++) {
    input.signal.throwIfAborted();
    const image = renderScene(prompt, (input.seed + i * 7919) >>> 0, width, height);
    files.push(await writeImage(image, input.workDir, `image-${i + 1}`, format, quality));
  }
  return { type: 'image', files };
}

export const textToImageEngine: GenerationEngine = {
  id: 'scene-painter',
  tasks: ['text-to-image'],
  run,
};
