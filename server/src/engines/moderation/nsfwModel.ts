/**
 * The nsfwjs model itself: loaded from the nsfwjs package (its weights ship inside it, nothing is
 * downloaded), folded when it can be (fuseLayersModel.ts, checked against the stock model), and run on
 * a batch of decoded rasters. This module runs inside the classifier's worker thread (nsfwWorker.ts);
 * nsfwImage.ts is the side the rest of the server calls.
 */
import type { Tensor } from '@tensorflow/tfjs';
import type { NSFWJS } from 'nsfwjs';
import { fuseLayersModel, type FusedModel } from './fuseLayersModel.js';
import { NSFW_CLASS_NAMES, type NsfwClassProbabilities } from './nsfwScore.js';
import { tfReady } from './tfBackend.js';

export const NSFW_MODEL_NAMES = ['MobileNetV2', 'MobileNetV2Mid', 'InceptionV3'] as const;
export type NsfwModelName = (typeof NSFW_MODEL_NAMES)[number];
export const DEFAULT_NSFW_MODEL: NsfwModelName = 'MobileNetV2';

export const INPUT_SIZE: Record<NsfwModelName, number> = {
  MobileNetV2: 224,
  MobileNetV2Mid: 224,
  InceptionV3: 299,
};

/**
 * How a model runs: 'folded' (BatchNorm folded into the convolutions, fuseLayersModel.ts, checked
 * against the stock model at load) or 'stock' (nsfwjs's own predict()).
 */
export type NsfwRuntime = 'folded' | 'stock';

export interface NsfwModel {
  readonly modelName: NsfwModelName;
  readonly inputSize: number;
  readonly runtime: NsfwRuntime;
  /** Class probabilities for square RGB rasters of inputSize x inputSize, run as one batch. */
  predictBatch(rasters: Uint8Array[]): Promise<NsfwClassProbabilities[]>;
}

export async function loadNsfwModel(modelName: NsfwModelName): Promise<NsfwModel> {
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

  return {
    modelName,
    inputSize: size,
    runtime: fused ? 'folded' : 'stock',
    /**
     * The normalisation is nsfwjs's own (pixels / 255, NHWC), and the model's output is already a
     * softmax over the five classes.
     */
    async predictBatch(rasters) {
      const n = rasters.length;
      const pixels = new Int32Array(n * size * size * 3);
      rasters.forEach((r, i) => {
        if (r.length !== size * size * 3) throw new RangeError(`expected a ${size}x${size} RGB raster`);
        pixels.set(r, i * size * size * 3);
      });
      const output = tf.tidy(() =>
        predict(tf.tensor4d(pixels, [n, size, size, 3], 'int32').toFloat().div(255)),
      );
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
