/**
 * The nsfwjs image classifier on the tfjs wasm backend: loaded once per process, shared by every
 * caller, inference serialised through one queue. Its weights ship inside the nsfwjs package, so
 * nothing is downloaded.
 *
 * Model: MEDIAGEN_NSFW_MODEL (MobileNetV2, MobileNetV2Mid or InceptionV3); the default was chosen by
 * measurement, see docs/moderation.md ("Choosing the image model").
 */
import type { NSFWJS } from 'nsfwjs';
import { decodeToSquareRgb } from './decodeImage.js';
import { InferenceQueue } from './inferenceQueue.js';
import { NSFW_CLASS_NAMES, type NsfwClassProbabilities } from './nsfwScore.js';
import { tfReady } from './tfBackend.js';

export const NSFW_MODEL_NAMES = ['MobileNetV2', 'MobileNetV2Mid', 'InceptionV3'] as const;
export type NsfwModelName = (typeof NSFW_MODEL_NAMES)[number];
export const DEFAULT_NSFW_MODEL: NsfwModelName = 'MobileNetV2';

const INPUT_SIZE: Record<NsfwModelName, number> = { MobileNetV2: 224, MobileNetV2Mid: 224, InceptionV3: 299 };

export function configuredNsfwModel(env: NodeJS.ProcessEnv = process.env): NsfwModelName {
  const name = env.MEDIAGEN_NSFW_MODEL?.trim();
  if (!name) return DEFAULT_NSFW_MODEL;
  if (!(NSFW_MODEL_NAMES as readonly string[]).includes(name)) {
    throw new Error(`MEDIAGEN_NSFW_MODEL must be one of ${NSFW_MODEL_NAMES.join(', ')}; got "${name}"`);
  }
  return name as NsfwModelName;
}

export interface NsfwImageClassifier {
  readonly modelName: NsfwModelName;
  readonly inputSize: number;
  /** Class probabilities for one image (any size; decoded and resized here). */
  classify(image: Buffer, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
  /** Class probabilities for an already decoded square RGB raster of inputSize x inputSize. */
  classifyRgb(rgb: Uint8Array, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
}

const loaded = new Map<NsfwModelName, Promise<NsfwImageClassifier>>();
const queue = new InferenceQueue();

async function load(modelName: NsfwModelName): Promise<NsfwImageClassifier> {
  const tf = await tfReady();
  const nsfwjs = await import('nsfwjs');
  // nsfwjs logs a banner with console.info for the bundled models; keep the server's log clean.
  const info = console.info;
  console.info = () => undefined;
  let model: NSFWJS;
  try {
    model = await nsfwjs.load(modelName);
  } finally {
    console.info = info;
  }
  const size = INPUT_SIZE[modelName];

  const classifyRgb = (rgb: Uint8Array, signal?: AbortSignal) =>
    queue.run(async () => {
      if (rgb.length !== size * size * 3) throw new RangeError(`expected a ${size}x${size} RGB raster`);
      const input = tf.tensor3d(rgb, [size, size, 3], 'int32');
      try {
        const predictions = await model.classify(input, NSFW_CLASS_NAMES.length);
        const probabilities = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
        for (const p of predictions) probabilities[p.className] = p.probability;
        return probabilities;
      } finally {
        input.dispose();
      }
    }, signal);

  return {
    modelName,
    inputSize: size,
    classifyRgb,
    async classify(image, signal) {
      const { data } = await decodeToSquareRgb(image, size);
      return classifyRgb(data, signal);
    },
  };
}

/** The process-wide classifier for `modelName` (default: the configured one); loads on first use. */
export function nsfwImageClassifier(
  modelName: NsfwModelName = configuredNsfwModel(),
): Promise<NsfwImageClassifier> {
  let promise = loaded.get(modelName);
  if (!promise) {
    promise = load(modelName);
    loaded.set(modelName, promise);
    promise.catch(() => loaded.delete(modelName));
  }
  return promise;
}
