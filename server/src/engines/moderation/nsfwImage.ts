/**
 * The nsfwjs image classifier on the tfjs wasm backend: loaded once per process, shared by every
 * caller, inference serialised through one queue. Its weights ship inside the nsfwjs package, so
 * nothing is downloaded.
 *
 * Model: MEDIAGEN_NSFW_MODEL (MobileNetV2, MobileNetV2Mid or InceptionV3); the default was chosen by
 * measurement, see docs/moderation.md ("Choosing the image model").
 */
import type { Tensor } from '@tensorflow/tfjs';
import type { NSFWJS } from 'nsfwjs';
import { decodeToSquareRgb } from './decodeImage.js';
import { fuseLayersModel, type FusedModel } from './fuseLayersModel.js';
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
  /**
   * How the model runs: 'folded' (BatchNorm folded into the convolutions, fuseLayersModel.ts, checked
   * against the stock model at load) or 'stock' (nsfwjs's own predict()).
   */
  readonly runtime: 'folded' | 'stock';
  /** Class probabilities for one image (any size; decoded and resized here). */
  classify(image: Buffer, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
  /** Class probabilities for an already decoded square RGB raster of inputSize x inputSize. */
  classifyRgb(rgb: Uint8Array, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
}

const loaded = new Map<NsfwModelName, Promise<NsfwImageClassifier>>();
/** Most images classified in one batch (memory: 8 x 224 x 224 x 3 floats = 4.8 MB of input). */
const MAX_BATCH = 8;

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
  const fused = foldOrStock(tf, model, size);
  const predict = (input: Tensor) => (fused ? fused.predict(input) : (model.model.predict(input) as Tensor));

  /**
   * Micro-batching: requests that arrive while the model is busy wait in `pending`; when it is free,
   * up to MAX_BATCH of them run as one [n, size, size, 3] batch. One call alone runs at once, as a
   * batch of one; under load the wasm backend does several images in less time than one by one.
   * The normalisation is nsfwjs's own (pixels / 255, NHWC), and the model's output is already a
   * softmax over the five classes.
   */
  const pending: Array<{
    rgb: Uint8Array;
    signal?: AbortSignal;
    resolve: (p: NsfwClassProbabilities) => void;
    reject: (e: unknown) => void;
  }> = [];
  let draining = false;

  const predictBatch = async (rasters: Uint8Array[]): Promise<NsfwClassProbabilities[]> => {
    const n = rasters.length;
    const pixels = new Int32Array(n * size * size * 3);
    rasters.forEach((r, i) => pixels.set(r, i * size * size * 3));
    const output = tf.tidy(() => {
      const input = tf.tensor4d(pixels, [n, size, size, 3], 'int32').toFloat().div(255);
      return predict(input);
    });
    try {
      const values = await output.data();
      return rasters.map((_, i) => {
        const row = values.slice(i * NSFW_CLASS_NAMES.length, (i + 1) * NSFW_CLASS_NAMES.length);
        return Object.fromEntries(
          NSFW_CLASS_NAMES.map((name, k) => [name, row[k]!]),
        ) as NsfwClassProbabilities;
      });
    } finally {
      output.dispose();
    }
  };

  const drain = async () => {
    draining = true;
    try {
      while (pending.length > 0) {
        const batch = pending.splice(0, MAX_BATCH).filter((job) => {
          if (!job.signal?.aborted) return true;
          job.reject(job.signal.reason);
          return false;
        });
        if (batch.length === 0) continue;
        try {
          const results = await predictBatch(batch.map((job) => job.rgb));
          batch.forEach((job, i) => job.resolve(results[i]!));
        } catch (error) {
          for (const job of batch) job.reject(error);
        }
      }
    } finally {
      draining = false;
    }
  };

  const classifyRgb = (rgb: Uint8Array, signal?: AbortSignal) =>
    new Promise<NsfwClassProbabilities>((resolve, reject) => {
      if (rgb.length !== size * size * 3) throw new RangeError(`expected a ${size}x${size} RGB raster`);
      signal?.throwIfAborted();
      pending.push({ rgb, signal, resolve, reject });
      if (!draining) void drain();
    });

  return {
    modelName,
    inputSize: size,
    runtime: fused ? 'folded' : 'stock',
    classifyRgb,
    async classify(image, signal) {
      const { data } = await decodeToSquareRgb(image, size);
      return classifyRgb(data, signal);
    },
  };
}

/** Largest difference allowed between the folded and the stock model's probabilities. */
const FOLD_TOLERANCE = 1e-4;

/**
 * The folded model when the stock one can be folded and both agree on a test pattern (a smooth
 * colour gradient with a bright square, so every channel and both halves of the softmax are
 * exercised); undefined, and the stock model runs, otherwise.
 */
function foldOrStock(
  tf: Awaited<ReturnType<typeof tfReady>>,
  model: NSFWJS,
  size: number,
): FusedModel | undefined {
  if (!('layers' in model.model)) return undefined; // a graph model (MobileNetV2Mid) runs as shipped
  let fused: FusedModel;
  try {
    fused = fuseLayersModel(tf, model.model);
  } catch {
    return undefined;
  }
  const difference = tf.tidy(() => {
    const ramp = tf.linspace(0, 1, size);
    const r = tf.tile(tf.reshape(ramp, [1, size, 1, 1]), [1, 1, size, 1]);
    const g = tf.tile(tf.reshape(ramp, [1, 1, size, 1]), [1, size, 1, 1]);
    const q = Math.floor(size / 4);
    const square = tf.pad(tf.ones([1, q, q, 1]), [
      [0, 0],
      [2 * q, size - 3 * q],
      [q, size - 2 * q],
      [0, 0],
    ]);
    const input = tf.concat([r, g, square], 3);
    const stock = model.model.predict(input) as Tensor;
    return tf.max(tf.abs(tf.sub(stock, fused.predict(input)))).dataSync()[0]!;
  });
  if (!(difference <= FOLD_TOLERANCE)) {
    fused.dispose();
    console.warn(
      `nsfw classifier: the folded model differs from the stock one by ${difference}; running the stock model`,
    );
    return undefined;
  }
  return fused;
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
