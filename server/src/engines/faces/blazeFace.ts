/**
 * BlazeFace, Human's face detector network, on onnxruntime-node instead of tfjs's WebAssembly backend:
 * about 6 ms a run on one onnxruntime thread here against about 28 ms on tfjs (docs/faces.md, "Where
 * detection's time goes"). findFaces.ts makes every detector run through it:
 *   - box-only runs (tiles, closer looks): `boxes()`, which also does the arithmetic around the network as
 *     Human's box-only path does it, so it needs nothing else of Human;
 *   - runs with landmarks (the whole picture, a swap's faces): `detectWithLandmarks()`, Human's whole
 *     pipeline (FaceMesh, rotation, boxes from the mesh), with its one BlazeFace call answered from this
 *     session.
 *
 * It is the same network with the same weights (the BlazeFace model that ships in @vladmandic/human's
 * models/ folder, as Human loaded it), converted to ONNX in memory when it loads
 * (onnx/tfjsGraphToOnnx.ts), and fed the same input Human feeds it: the picture squeezed to 256 px with
 * tfjs's bilinear resize and scaled to -1..1. `boxes()` then decodes BlazeFace's 896 anchors, applies
 * non-maximum suppression with Human's settings (human.ts), scales each box to the input, enlarges it
 * 1.4x, makes it square and clamps it, rounds its score to two decimals and keeps it above the least
 * confidence. `blazeFace.test.ts` checks both paths against Human's own answers.
 *
 * One intra-op thread, because the face worker shares the machine with the API and the moderation worker.
 */
import type { FaceResult, Human, Tensor3D } from '@vladmandic/human';
import type * as Ort from 'onnxruntime-node';
import { tfjsGraphToOnnx } from '../onnx/tfjsGraphToOnnx.js';
import { DETECTOR_BOX_SCALE, DETECTOR_IOU, DETECTOR_MIN_CONFIDENCE, human, MAX_FACES } from './human.js';

/** A face's box in the input's pixels ([x, y, width, height], clamped to the input) and its score. */
export interface DetectedBox {
  box: [number, number, number, number];
  boxScore: number;
}

/** BlazeFace's input side and its anchor grids: 16x16 cells of 2 anchors, then 8x8 cells of 6. */
const INPUT = 256;
const GRIDS = [
  { stride: 16, perCell: 2 },
  { stride: 32, perCell: 6 },
];

/**
 * Human's settings for a detection with landmarks: FaceMesh on, and rotation on (it levels each face for
 * FaceMesh). Human merges a call's settings into its own for good, so both switches are always given.
 */
export const WITH_LANDMARKS = {
  face: { mesh: { enabled: true }, detector: { rotation: true } },
} as Parameters<Human['detect']>[1];

export class BlazeFace {
  private readonly anchors: Float32Array;

  constructor(
    private readonly h: Human,
    private readonly session: Ort.InferenceSession,
    private readonly ort: typeof Ort,
  ) {
    const anchors: number[] = [];
    for (const { stride, perCell } of GRIDS) {
      const cells = Math.ceil(INPUT / stride);
      for (let y = 0; y < cells; y++)
        for (let x = 0; x < cells; x++)
          for (let n = 0; n < perCell; n++) anchors.push(stride * (x + 0.5), stride * (y + 0.5));
    }
    this.anchors = Float32Array.from(anchors);
  }

  /** Every face box in `input` (an RGB picture as a [height, width, 3] tensor), most confident first. */
  async boxes(input: Tensor3D): Promise<DetectedBox[]> {
    const [height, width] = input.shape as [number, number, number];
    if (height < 1 || width < 1) return [];
    const outputs = Object.values(await this.run(input));
    // Four outputs: logits and regressors for each grid, told apart by their shapes.
    const output = (rows: number, columns: number) => {
      const found = outputs.find((t) => t.dims[1] === rows && t.dims[2] === columns);
      if (!found) throw new Error(`BlazeFace gave no [1, ${rows}, ${columns}] output`);
      return found.data as Float32Array;
    };
    const logits = concat(output(512, 1), output(384, 1));
    const regressors = concat(output(512, 16), output(384, 16));

    const count = logits.length;
    const boxes = new Float32Array(count * 4);
    const scores = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const r = i * 16;
      const cx = regressors[r]! + this.anchors[i * 2]!;
      const cy = regressors[r + 1]! + this.anchors[i * 2 + 1]!;
      const w = regressors[r + 2]!;
      const hh = regressors[r + 3]!;
      boxes.set([cx - w / 2, cy - hh / 2, cx + w / 2, cy + hh / 2], i * 4);
      scores[i] = 1 / (1 + Math.exp(-logits[i]!));
    }
    const sx = width / INPUT;
    const sy = height / INPUT;
    const faces = nonMaxSuppression(boxes, scores, MAX_FACES, DETECTOR_IOU, DETECTOR_MIN_CONFIDENCE).map(
      (i) => {
        const [x1, y1, x2, y2] = boxes.subarray(i * 4, i * 4 + 4) as unknown as [
          number,
          number,
          number,
          number,
        ];
        // Scaled to the input, enlarged around its centre, made square (Human's box for a face).
        const cx = ((x1 + x2) / 2) * sx;
        const cy = ((y1 + y2) / 2) * sy;
        const half = (Math.max(Math.abs(x2 - x1) * sx, Math.abs(y2 - y1) * sy) * DETECTOR_BOX_SCALE) / 2;
        const left = Math.round(cx - half);
        const top = Math.round(cy - half);
        const right = Math.round(cx + half);
        const bottom = Math.round(cy + half);
        const x = Math.trunc(Math.max(0, left));
        const y = Math.trunc(Math.max(0, top));
        return {
          box: [x, y, Math.trunc(Math.min(width, right) - x), Math.trunc(Math.min(height, bottom) - y)],
          boxScore: Math.round(100 * scores[i]!) / 100,
        } satisfies DetectedBox;
      },
    );
    // Like Human, a face is kept when its rounded score is still above the least confidence.
    return faces.filter((face) => face.boxScore > DETECTOR_MIN_CONFIDENCE);
  }

  /**
   * Human's detection with landmarks (FaceMesh) on `input`, its BlazeFace call answered by this session.
   * Human calls its BlazeFace model's execute() synchronously once per detection, with the input squeezed
   * and scaled as run() does it; onnxruntime only answers asynchronously. So the network is run here first,
   * and the model's execute() is replaced for the length of this one detection by a function that hands
   * those outputs over as tfjs tensors, once. Any other call (another input shape, a second call) goes
   * to the model as before. Detections are one at a time (findFaces's queue), so no other call can come
   * in between.
   */
  async detectWithLandmarks(input: Tensor3D): Promise<FaceResult[]> {
    const { tf } = this.h;
    // An empty picture (a 2 px wide one shrunk by 3): Human would not run the detector on it either.
    if (input.shape[0] < 1 || input.shape[1] < 1) return [];
    const outputs = Object.values(await this.run(input));
    const model = this.h.models.models.blazeface;
    if (!model) throw new Error('the BlazeFace model is not loaded');
    const original = model.execute.bind(model);
    let answered = false;
    model.execute = ((inputs, names) => {
      const shape = (inputs as { shape?: number[] }).shape;
      if (answered || names !== undefined || shape?.join() !== `1,${INPUT},${INPUT},3`) {
        return original(inputs, names);
      }
      answered = true;
      return outputs.map((t) => tf.tensor(t.data as Float32Array, t.dims as number[], 'float32'));
    }) as typeof model.execute;
    try {
      const result = await this.h.detect(input, WITH_LANDMARKS);
      if (result.error) throw new Error(`face detector failed: ${result.error}`);
      if (!answered)
        throw new Error('Human did not run BlazeFace through its model (an unexpected version?)');
      return result.face;
    } finally {
      delete (model as { execute?: unknown }).execute;
    }
  }

  /** The network's four outputs for `input`, squeezed to 256 px and scaled to -1..1 as Human does it. */
  private async run(input: Tensor3D): Promise<Ort.InferenceSession.ReturnType> {
    const { tf } = this.h;
    const normalized = tf.tidy(() =>
      tf.sub(tf.div(tf.image.resizeBilinear(tf.expandDims(input, 0), [INPUT, INPUT]), 127.5), 1),
    );
    let pixels: Float32Array;
    try {
      pixels = (await normalized.data()) as Float32Array;
    } finally {
      tf.dispose(normalized);
    }
    return this.session.run({
      [this.session.inputNames[0]!]: new this.ort.Tensor('float32', pixels, [1, INPUT, INPUT, 3]),
    });
  }
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Greedy non-maximum suppression as tfjs's nonMaxSuppression does it: candidates above `minScore` by
 * falling score, each dropped when it overlaps a kept box by an IoU of `iou` or more.
 */
export function nonMaxSuppression(
  boxes: Float32Array,
  scores: Float32Array,
  maxOut: number,
  iou: number,
  minScore: number,
): number[] {
  const candidates: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i]! > minScore) candidates.push(i);
  candidates.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const kept: number[] = [];
  for (const i of candidates) {
    if (kept.length >= maxOut) break;
    if (kept.every((k) => intersectionOverUnion(boxes, i, k) < iou)) kept.push(i);
  }
  return kept;
}

function intersectionOverUnion(boxes: Float32Array, i: number, j: number): number {
  const ax1 = Math.min(boxes[i * 4]!, boxes[i * 4 + 2]!);
  const ay1 = Math.min(boxes[i * 4 + 1]!, boxes[i * 4 + 3]!);
  const ax2 = Math.max(boxes[i * 4]!, boxes[i * 4 + 2]!);
  const ay2 = Math.max(boxes[i * 4 + 1]!, boxes[i * 4 + 3]!);
  const bx1 = Math.min(boxes[j * 4]!, boxes[j * 4 + 2]!);
  const by1 = Math.min(boxes[j * 4 + 1]!, boxes[j * 4 + 3]!);
  const bx2 = Math.max(boxes[j * 4]!, boxes[j * 4 + 2]!);
  const by2 = Math.max(boxes[j * 4 + 1]!, boxes[j * 4 + 3]!);
  const areaA = (ax2 - ax1) * (ay2 - ay1);
  const areaB = (bx2 - bx1) * (by2 - by1);
  if (areaA <= 0 || areaB <= 0) return 0;
  const iw = Math.max(0, Math.min(ax2, bx2) - Math.max(ax1, bx1));
  const ih = Math.max(0, Math.min(ay2, by2) - Math.max(ay1, by1));
  const inter = iw * ih;
  return inter / (areaA + areaB - inter);
}

let loading: Promise<BlazeFace> | undefined;

async function load(): Promise<BlazeFace> {
  const h = await human();
  const model = h.models.models.blazeface;
  if (!model) throw new Error('the BlazeFace model is not loaded');
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(tfjsGraphToOnnx(model, 'blazeface'), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return new BlazeFace(h, session, ort);
}

/** The process's one BlazeFace session (loads Human, converts the model and loads it on first call). */
export function blazeFace(): Promise<BlazeFace> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
