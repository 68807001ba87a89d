/**
 * tfjsGraphToOnnx: the ONNX model onnxruntime runs must compute what tfjs computes for the same input.
 * Checked on the two networks Human ships (BlazeFace, which the box detector runs, and FaceMesh), on a
 * small graph written here for what those two do not use (a depthwise convolution with a channel
 * multiplier, stride 2 and VALID padding, fused bias and ReLU6, a plain Conv2D, a standalone ReLU6), and
 * on a graph with an operation it does not know, which must be refused by name.
 */
import * as ort from 'onnxruntime-node';
import type { GraphModel, Tensor } from '@tensorflow/tfjs';
import type { Human } from '@vladmandic/human';
import { beforeAll, describe, expect, it } from 'vitest';
import { human } from '../../../src/engines/faces/human.js';
import { tfjsGraphToOnnx, UnsupportedGraphError } from '../../../src/engines/onnx/tfjsGraphToOnnx.js';

let h: Human;
beforeAll(async () => {
  h = await human();
}, 120_000);

/** Deterministic pseudo-random floats in -1..1. */
function noise(length: number, seed: number): Float32Array {
  const out = new Float32Array(length);
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = (s / 2147483648) * 2 - 1;
  }
  return out;
}

/** The largest difference between tfjs's outputs and onnxruntime's for one input, per output name. */
async function differences(model: GraphModel, shape: number[], seed = 7): Promise<Record<string, number>> {
  const { tf } = h;
  const data = noise(
    shape.reduce((a, b) => a * b, 1),
    seed,
  );
  const input = tf.tensor(data, shape);
  // The graph's own output nodes (a model with a signature names its outputs otherwise in outputNodes).
  const names = (
    model as unknown as { executor: { graph: { outputs: { name: string }[] } } }
  ).executor.graph.outputs.map((n) => n.name);
  const expected = model.execute(input, names) as Tensor | Tensor[];
  const expectedList = Array.isArray(expected) ? expected : [expected];
  const session = await ort.InferenceSession.create(tfjsGraphToOnnx(model));
  try {
    const results = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', data, shape) });
    const out: Record<string, number> = {};
    names.forEach((name, i) => {
      const want = expectedList[i]!.dataSync();
      const got = results[name]!.data as Float32Array;
      expect(got.length, name).toBe(want.length);
      let worst = 0;
      for (let k = 0; k < got.length; k++) worst = Math.max(worst, Math.abs(got[k]! - want[k]!));
      out[name] = worst;
    });
    return out;
  } finally {
    tf.dispose([input, ...expectedList]);
    await session.release();
  }
}

describe('the networks Human ships', () => {
  it('BlazeFace: every output within 1e-3 of tfjs', async () => {
    const model = h.models.models.blazeface!;
    const diffs = await differences(model, [1, 256, 256, 3]);
    expect(Object.keys(diffs)).toHaveLength(4);
    for (const [name, diff] of Object.entries(diffs)) expect(diff, name).toBeLessThan(1e-3);
  });

  it('FaceMesh: every output within 1e-3 of tfjs', async () => {
    const model = h.models.models.facemesh!;
    const diffs = await differences(model, [1, 192, 192, 3], 11);
    expect(Object.keys(diffs).length).toBeGreaterThanOrEqual(3);
    for (const [name, diff] of Object.entries(diffs)) expect(diff, name).toBeLessThan(1e-3);
  });
});

// A tfjs GraphDef written by hand (the JSON tfjs-converter produces), with its weights in memory.
const b64 = (s: string) => Buffer.from(s).toString('base64');
const list = (values: number[]) => ({ list: { i: values.map(String) } });
const floatT = { type: 'DT_FLOAT' };

async function handMadeModel(
  nodes: object[],
  weights: Array<{ name: string; shape: number[]; data: Float32Array | Int32Array }>,
): Promise<GraphModel> {
  const { tf } = h;
  const buffers = weights.map((w) => new Uint8Array(w.data.buffer.slice(0)));
  const total = buffers.reduce((n, b) => n + b.length, 0);
  const weightData = new Uint8Array(total);
  let at = 0;
  for (const b of buffers) {
    weightData.set(b, at);
    at += b.length;
  }
  const constNodes = weights.map((w) => ({
    name: w.name,
    op: 'Const',
    attr: { dtype: { type: w.data instanceof Int32Array ? 'DT_INT32' : 'DT_FLOAT' }, value: { tensor: {} } },
  }));
  return tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: { node: [...constNodes, ...nodes], library: {}, versions: {} },
      weightSpecs: weights.map((w) => ({
        name: w.name,
        shape: w.shape,
        dtype: w.data instanceof Int32Array ? 'int32' : 'float32',
      })),
      weightData: weightData.buffer,
    }),
  );
}

const placeholder = (shape: number[]) => ({
  name: 'input',
  op: 'Placeholder',
  attr: { dtype: floatT, shape: { shape: { dim: shape.map((size) => ({ size: String(size) })) } } },
});

describe('operations BlazeFace and FaceMesh do not use', () => {
  it('a fused depthwise convolution (multiplier 2, stride 2, VALID, bias, ReLU6), a plain Conv2D and a ReLU6', async () => {
    const model = await handMadeModel(
      [
        placeholder([1, 9, 9, 4]),
        {
          name: 'dw',
          op: 'FusedDepthwiseConv2dNative',
          input: ['input', 'dw_filter', 'dw_bias'],
          attr: {
            T: floatT,
            strides: list([1, 2, 2, 1]),
            padding: { s: b64('VALID') },
            data_format: { s: b64('NHWC') },
            dilations: list([1, 1, 1, 1]),
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu6')] } },
            num_args: { i: '1' },
          },
        },
        {
          name: 'conv',
          op: 'Conv2D',
          input: ['dw', 'conv_filter'],
          attr: {
            T: floatT,
            strides: list([1, 1, 1, 1]),
            padding: { s: b64('SAME') },
            data_format: { s: b64('NHWC') },
            dilations: list([1, 1, 1, 1]),
          },
        },
        { name: 'clip', op: 'Relu6', input: ['conv'], attr: { T: floatT } },
        { name: 'flat', op: 'Reshape', input: ['clip', 'flat_shape'], attr: { T: floatT } },
        { name: 'Identity', op: 'Identity', input: ['flat'], attr: { T: floatT } },
      ],
      [
        { name: 'dw_filter', shape: [3, 3, 4, 2], data: noise(3 * 3 * 4 * 2, 3).map((v) => v * 3) },
        { name: 'dw_bias', shape: [8], data: noise(8, 5) },
        { name: 'conv_filter', shape: [3, 3, 8, 5], data: noise(3 * 3 * 8 * 5, 9) },
        { name: 'flat_shape', shape: [2], data: Int32Array.from([1, -1]) },
      ],
    );
    const diffs = await differences(model, [1, 9, 9, 4], 13);
    expect(Object.keys(diffs)).toEqual(['Identity']);
    expect(diffs.Identity).toBeLessThan(1e-4);
    // The output is not all zeros or all sixes (ReLU6 must not hide a wrong convolution).
    const { tf } = h;
    const input = tf.tensor(noise(9 * 9 * 4, 13), [1, 9, 9, 4]);
    const values = Array.from((model.execute(input) as Tensor).dataSync());
    tf.dispose(input);
    expect(values).toHaveLength(4 * 4 * 5);
    expect(values.filter((v) => v > 0 && v < 6).length).toBeGreaterThan(10);
  });

  it('refuses an operation it does not know, by name', async () => {
    const model = await handMadeModel(
      [
        placeholder([1, 2, 2, 3]),
        { name: 'squash', op: 'Tanh', input: ['input'], attr: { T: floatT } },
        { name: 'Identity', op: 'Identity', input: ['squash'], attr: { T: floatT } },
      ],
      [],
    );
    expect(() => tfjsGraphToOnnx(model)).toThrow(UnsupportedGraphError);
    expect(() => tfjsGraphToOnnx(model)).toThrow(/operation Tanh \(node squash\)/);
  });
});
