/**
 * fuseLayersModel.ts: BatchNorm folded into the convolutions must compute the same function as the
 * model it came from. Checked on a small Keras model with random weights and non-trivial BatchNorm
 * statistics (every layer kind the folder understands, folds with and without an activation after,
 * a standalone BatchNorm, an Inception-style concatenation),
 * and on nsfwjs's real MobileNetV2 over the real photos; a layer it does not understand is refused.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeToSquareRgb } from '../../../src/engines/moderation/decodeImage.js';
import { fuseLayersModel, UnsupportedModelError } from '../../../src/engines/moderation/fuseLayersModel.js';
import { nsfwImageClassifier } from '../../../src/engines/moderation/nsfwImage.js';
import { tfReady } from '../../../src/engines/moderation/tfBackend.js';
import { FIXTURES, ORDINARY_PHOTOS } from './fixtures.js';

type Tf = Awaited<ReturnType<typeof tfReady>>;
let tf: Tf;

beforeAll(async () => {
  tf = await tfReady();
}, 120_000);

/**
 * Seeded weights for every layer (so the test is the same on every run): kernels and biases small
 * and random, BatchNorm scale, shift, mean and variance random and far from the identity.
 */
function seedWeights(model: ReturnType<Tf['model']>) {
  let seed = 1;
  for (const layer of model.layers) {
    const weights = layer.getWeights();
    if (weights.length === 0) continue;
    if (layer.getClassName() === 'BatchNormalization') {
      const n = weights[0]!.shape[0]!;
      layer.setWeights([
        tf.randomUniform([n], 0.5, 2, 'float32', seed++),
        tf.randomUniform([n], -1, 1, 'float32', seed++),
        tf.randomUniform([n], -0.5, 0.5, 'float32', seed++),
        tf.randomUniform([n], 0.2, 3, 'float32', seed++),
      ]);
    } else {
      layer.setWeights(weights.map((w) => tf.randomUniform(w.shape, -0.4, 0.4, 'float32', seed++)));
    }
  }
}

function smallModel(tfl: Tf) {
  const input = tfl.input({ shape: [32, 32, 3] });
  const padded = tfl.layers
    .zeroPadding2d({
      padding: [
        [0, 1],
        [0, 1],
      ],
    })
    .apply(input);
  let x = tfl.layers.conv2d({ filters: 8, kernelSize: 3, strides: 2, useBias: false }).apply(padded);
  x = tfl.layers.batchNormalization({ epsilon: 1e-3 }).apply(x);
  x = tfl.layers.reLU({ maxValue: 6 }).apply(x);
  let y = tfl.layers.depthwiseConv2d({ kernelSize: 3, padding: 'same', useBias: false }).apply(x);
  y = tfl.layers.batchNormalization({ epsilon: 1e-3 }).apply(y);
  y = tfl.layers.reLU({}).apply(y);
  y = tfl.layers.conv2d({ filters: 8, kernelSize: 1, useBias: true }).apply(y);
  y = tfl.layers.batchNormalization({ epsilon: 1e-3 }).apply(y); // folded, no activation after it
  const sum = tfl.layers.add().apply([x, y] as never);
  // A BatchNorm read by two layers cannot be folded into one of them: it must run on its own.
  const shared = tfl.layers.batchNormalization({ epsilon: 1e-3 }).apply(sum);
  const left = tfl.layers.reLU({ maxValue: 6 }).apply(shared);
  const both = tfl.layers.add().apply([left, shared] as never);
  // An Inception-style branch: max pooling beside a convolution, joined on the channels.
  const maxed = tfl.layers.maxPooling2d({ poolSize: 3, strides: 1, padding: 'same' }).apply(both);
  let branch = tfl.layers.conv2d({ filters: 4, kernelSize: 3, padding: 'same', useBias: false }).apply(both);
  branch = tfl.layers.batchNormalization({ epsilon: 1e-3 }).apply(branch);
  branch = tfl.layers.activation({ activation: 'relu' }).apply(branch);
  const joined = tfl.layers.concatenate({ axis: -1 }).apply([maxed, branch] as never);
  const pooled = tfl.layers.averagePooling2d({ poolSize: 4, strides: 4 }).apply(joined);
  const flat = tfl.layers.flatten().apply(pooled);
  let out = tfl.layers.dense({ units: 6, activation: 'relu' }).apply(flat);
  out = tfl.layers.dropout({ rate: 0.5 }).apply(out);
  out = tfl.layers.dense({ units: 4, activation: 'softmax' }).apply(out);
  return tfl.model({ inputs: input, outputs: out as never });
}

describe('fuseLayersModel', () => {
  it('computes the same outputs as the model it folds (random weights and BatchNorm statistics)', () => {
    const model = smallModel(tf);
    seedWeights(model);
    const fused = fuseLayersModel(tf, model);
    try {
      // Four of the five BatchNorms fold; the one read by two layers runs on its own.
      expect(fused.foldedBatchNorms).toBe(4);
      const input = tf.randomUniform([3, 32, 32, 3], 0, 1, 'float32', 7);
      const expected = (model.predict(input) as ReturnType<Tf['zeros']>).arraySync() as number[][];
      const got = fused.predict(input).arraySync() as number[][];
      expect(got).toHaveLength(3);
      for (let i = 0; i < 3; i++) {
        for (let k = 0; k < 4; k++) expect(got[i]![k]!).toBeCloseTo(expected[i]![k]!, 5);
      }
      // The outputs are not all alike (a broken fold that zeroed everything would still be a softmax).
      const spread = Math.max(...got.flatMap((row) => row.map((p, k) => Math.abs(p - got[0]![k]!))));
      expect(spread).toBeGreaterThan(1e-6);
    } finally {
      fused.dispose();
      model.dispose();
    }
  });

  it('refuses a layer type it does not understand', () => {
    const input = tf.input({ shape: [8, 8, 3] });
    const upsampled = tf.layers.upSampling2d({ size: [2, 2] }).apply(input);
    const out = tf.layers.flatten().apply(upsampled);
    const model = tf.model({ inputs: input, outputs: out as never });
    expect(() => fuseLayersModel(tf, model)).toThrow(UnsupportedModelError);
    model.dispose();
  });

  it("gives nsfwjs's MobileNetV2 folded the same probabilities as the stock model on real photos", async () => {
    const classifier = await nsfwImageClassifier('MobileNetV2');
    expect(classifier.runtime).toBe('folded');
    const nsfwjs = await import('nsfwjs');
    const info = console.info;
    console.info = () => undefined;
    const stock = await nsfwjs.load('MobileNetV2').finally(() => {
      console.info = info;
    });
    for (const name of ORDINARY_PHOTOS) {
      const { data } = await decodeToSquareRgb(readFileSync(FIXTURES + name), 224);
      const folded = await classifier.classifyRgb(data);
      const expected = tf.tidy(() => {
        const x = tf.tensor4d(Int32Array.from(data), [1, 224, 224, 3], 'int32').toFloat().div(255);
        return Array.from((stock.model.predict(x) as ReturnType<Tf['zeros']>).dataSync());
      });
      const got = Object.values(folded);
      expect(got).toHaveLength(5);
      got.forEach((p, k) => expect(Math.abs(p - expected[k]!)).toBeLessThan(1e-4));
    }
    stock.model.dispose();
  }, 120_000);
});
