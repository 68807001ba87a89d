/**
 * Trains the n-gram classifier (ngramModel.ts): per policy, an L2-regularised logistic regression
 * over ngramFeatures, fitted by L-BFGS. Pure: the runner (server/scripts/trainTextModel.ts) reads the
 * sentences and ordinary text and writes the files.
 *
 * Weights per example: a policy's `ok` sentences count 1 each, its `flag` sentences as much together
 * as the `ok` ones (the classes balanced), and the ordinary texts as much together as the `ok`
 * sentences again (`ordinaryWeight` times), so that thousands of manual-page paragraphs teach what
 * ordinary text looks like without drowning the hand-written hard negatives.
 */
import type { ModerationPolicyName } from '../../types.js';
import { ngramCounts, ngramFeatures, NGRAM_DIMENSIONS, type SparseVector } from './ngramFeatures.js';

export interface LabelledText {
  text: string;
  policy: ModerationPolicyName;
  flag: boolean;
}

export interface TrainOptions {
  /** Inverse regularisation strength (liblinear's C): higher fits the examples more closely. */
  c?: number;
  /** Total weight of the ordinary texts, as a multiple of the policy's `ok` sentences. */
  ordinaryWeight?: number;
  maxIterations?: number;
  log?: (line: string) => void;
}

export interface TrainedPolicy {
  policy: ModerationPolicyName;
  bias: number;
  w: Float32Array;
  iterations: number;
  loss: number;
}

/** Smoothed inverse document frequencies over every training text (scikit-learn's formula). */
export function inverseDocumentFrequencies(texts: readonly string[]): Float32Array {
  const df = new Uint32Array(NGRAM_DIMENSIONS);
  for (const t of texts) for (const i of ngramCounts(t).keys()) df[i]!++;
  const idf = new Float32Array(NGRAM_DIMENSIONS);
  const n = texts.length;
  for (let i = 0; i < idf.length; i++) idf[i] = Math.log((1 + n) / (1 + df[i]!)) + 1;
  return idf;
}

interface Example {
  x: SparseVector;
  /** 1 for a violation, 0 otherwise. */
  t: number;
  s: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let r = 0;
  for (let i = 0; i < a.length; i++) r += a[i]! * b[i]!;
  return r;
}

/**
 * min 0.5·|w|² + c·Σ sᵢ·log(1 + exp(−yᵢ(w·xᵢ + b))), the bias unregularised; L-BFGS (10 pairs) with
 * a backtracking line search.
 */
export function fitLogistic(
  examples: readonly Example[],
  dims: number,
  c: number,
  maxIterations: number,
): { w: Float64Array; iterations: number; loss: number } {
  const n = dims + 1; // the bias is the last coordinate
  const evaluate = (w: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    for (const { x, t, s } of examples) {
      let z = w[dims]!;
      for (let k = 0; k < x.index.length; k++) z += w[x.index[k]!]! * x.value[k]!;
      // log(1 + e^-z) for t = 1, log(1 + e^z) for t = 0, computed without overflow
      const m = t === 1 ? -z : z;
      loss += s * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
      const g = c * s * (1 / (1 + Math.exp(-z)) - t);
      for (let k = 0; k < x.index.length; k++) grad[x.index[k]!]! += g * x.value[k]!;
      grad[dims]! += g;
    }
    let reg = 0;
    for (let i = 0; i < dims; i++) {
      reg += w[i]! * w[i]!;
      grad[i]! += w[i]!;
    }
    return 0.5 * reg + c * loss;
  };
  const history: Array<{ s: Float64Array; y: Float64Array; rho: number }> = [];
  let w = new Float64Array(n);
  let g = new Float64Array(n);
  let f = evaluate(w, g);
  const g0 = Math.sqrt(dot(g, g));
  let it = 0;
  for (; it < maxIterations; it++) {
    // two-loop recursion: d = -H·g
    const q = Float64Array.from(g);
    const alpha: number[] = [];
    for (let k = history.length - 1; k >= 0; k--) {
      const h = history[k]!;
      const a = h.rho * dot(h.s, q);
      alpha[k] = a;
      for (let i = 0; i < n; i++) q[i]! -= a * h.y[i]!;
    }
    if (history.length > 0) {
      const last = history.at(-1)!;
      const gamma = dot(last.s, last.y) / dot(last.y, last.y);
      for (let i = 0; i < n; i++) q[i]! *= gamma;
    } else {
      const scale = 1 / Math.max(1, Math.sqrt(dot(g, g)));
      for (let i = 0; i < n; i++) q[i]! *= scale;
    }
    for (let k = 0; k < history.length; k++) {
      const h = history[k]!;
      const b = h.rho * dot(h.y, q);
      for (let i = 0; i < n; i++) q[i]! += h.s[i]! * (alpha[k]! - b);
    }
    for (let i = 0; i < n; i++) q[i] = -q[i]!;
    const slope = dot(g, q);
    if (!(slope < 0)) break;
    let step = 1;
    const wNext = new Float64Array(n);
    const gNext = new Float64Array(n);
    let fNext = Infinity;
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < n; i++) wNext[i] = w[i]! + step * q[i]!;
      fNext = evaluate(wNext, gNext);
      if (fNext <= f + 1e-4 * step * slope) break;
      step /= 2;
    }
    if (!(fNext < f)) break;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = wNext[i]! - w[i]!;
      y[i] = gNext[i]! - g[i]!;
    }
    const sy = dot(s, y);
    if (sy > 1e-12) {
      history.push({ s, y, rho: 1 / sy });
      if (history.length > 10) history.shift();
    }
    const done =
      (f - fNext) / Math.max(1, Math.abs(fNext)) < 1e-7 || Math.sqrt(dot(gNext, gNext)) < 1e-5 * g0;
    w = wNext;
    g = gNext;
    f = fNext;
    if (done) break;
  }
  return { w, iterations: it + 1, loss: f };
}

/** One classifier per policy named in `labelled`, all sharing `idf`. */
export function trainNgramPolicies(
  labelled: readonly LabelledText[],
  ordinary: readonly string[],
  idf: Float32Array,
  options: TrainOptions = {},
): TrainedPolicy[] {
  const { c = 16, ordinaryWeight = 1, maxIterations = 300, log } = options;
  const features = new Map<string, SparseVector>();
  const vector = (t: string) => {
    let v = features.get(t);
    if (!v) features.set(t, (v = ngramFeatures(t, idf)));
    return v;
  };
  const ordinaryVectors = ordinary.map(vector);
  const policies = [...new Set(labelled.map((l) => l.policy))];
  return policies.map((policy) => {
    const mine = labelled.filter((l) => l.policy === policy);
    const pos = mine.filter((l) => l.flag).length;
    const neg = mine.length - pos;
    if (pos === 0 || neg === 0) throw new Error(`${policy}: needs both flag and ok examples`);
    const examples: Example[] = mine.map((l) => ({
      x: vector(l.text),
      t: l.flag ? 1 : 0,
      s: l.flag ? neg / pos : 1,
    }));
    const so = ordinary.length > 0 ? (ordinaryWeight * neg) / ordinary.length : 0;
    for (const x of ordinaryVectors) examples.push({ x, t: 0, s: so });
    const fit = fitLogistic(examples, NGRAM_DIMENSIONS, c, maxIterations);
    log?.(
      `${policy}: ${pos} flag, ${neg} ok, ${ordinary.length} ordinary; ${fit.iterations} iterations, loss ${fit.loss.toFixed(1)}`,
    );
    return {
      policy,
      bias: fit.w[NGRAM_DIMENSIONS]!,
      w: Float32Array.from(fit.w.subarray(0, NGRAM_DIMENSIONS)),
      iterations: fit.iterations,
      loss: fit.loss,
    };
  });
}
