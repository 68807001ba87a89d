/**
 * The built-in n-gram text classifier: one logistic regression per policy over hashed character and
 * word n-grams (ngramFeatures.ts), trained by `server/scripts/trainTextModel.ts` on the hand-written
 * test sentences of every language (the development set and the spent blind sets) and on ordinary
 * text from Debian's manual pages, fortunes and WordNet (docs/moderation.md, "The n-gram classifier").
 *
 * It is a second reader beside the lexicons, not a replacement: it can only raise a text's score, and
 * only when it is confident (probability >= the model's threshold, 0.8). The lexicons explain their
 * verdicts word by word and handle negation, quotation and reporting; the model catches the
 * inflections, spellings and phrasings that no list holds.
 *
 * Files (server/models/text-ngram/): `model.json` (threshold, per policy a bias and the scale of its
 * weights, how it was trained) and `weights.bin` (inverse document frequencies as Uint8 in steps of
 * `idfStep`, then each policy's weights as Int8 in steps of its `scale`, in the order of `policies`).
 */
import { readFileSync } from 'node:fs';
import type { ModerationPolicyName } from '../../types.js';
import { ngramFeatures, NGRAM_DIMENSIONS } from './ngramFeatures.js';

export interface NgramModelMeta {
  format: 1;
  dimensions: number;
  /** Probability from which the model raises a score to the flag threshold (0.5) or above. */
  threshold: number;
  idfStep: number;
  policies: Array<{ policy: ModerationPolicyName; bias: number; scale: number }>;
  /** How the model was made: data, counts, date (documentation only). */
  trained: Record<string, unknown>;
}

export interface NgramModel {
  meta: NgramModelMeta;
  idf: Float32Array;
  weights: Map<ModerationPolicyName, { bias: number; w: Float32Array }>;
}

/** What the model says of one text for one policy. */
export interface NgramVerdict {
  probability: number;
  threshold: number;
  /** The score it gives the text: 0 below the threshold, 0.5-0.95 from it. */
  score: number;
}

const MODEL_URL = new URL('../../../../models/text-ngram/', import.meta.url);

/** The score the model gives: 0 under the threshold; from it, 0.5 rising to 0.95 at certainty. */
export function ngramScore(probability: number, threshold: number): number {
  if (!(probability >= threshold)) return 0;
  const over = threshold < 1 ? (probability - threshold) / (1 - threshold) : 1;
  return Math.round((0.5 + 0.45 * over) * 10_000) / 10_000;
}

export function probability(model: NgramModel, text: string, policy: ModerationPolicyName): number {
  const p = model.weights.get(policy);
  if (!p) return 0;
  const { index, value } = ngramFeatures(text, model.idf);
  let z = p.bias;
  for (let k = 0; k < index.length; k++) z += p.w[index[k]!]! * value[k]!;
  return 1 / (1 + Math.exp(-z));
}

export function judge(model: NgramModel, text: string, policy: ModerationPolicyName): NgramVerdict {
  const pr = probability(model, text, policy);
  return {
    probability: Math.round(pr * 10_000) / 10_000,
    threshold: model.meta.threshold,
    score: ngramScore(pr, model.meta.threshold),
  };
}

/** Writes a model as its two files' contents (weights quantised as described above). */
export function encodeNgramModel(
  trained: Record<string, unknown>,
  threshold: number,
  idf: Float32Array,
  policies: Array<{ policy: ModerationPolicyName; bias: number; w: Float32Array }>,
): { meta: NgramModelMeta; weights: Buffer } {
  const d = idf.length;
  let maxIdf = 0;
  for (const x of idf) maxIdf = Math.max(maxIdf, x);
  const idfStep = maxIdf > 0 ? maxIdf / 255 : 1;
  const out = Buffer.alloc(d + policies.length * d);
  for (let i = 0; i < d; i++) out[i] = Math.round(idf[i]! / idfStep);
  const metaPolicies = policies.map(({ policy, bias, w }, j) => {
    let max = 0;
    for (const x of w) max = Math.max(max, Math.abs(x));
    const scale = max > 0 ? max / 127 : 1;
    const view = new Int8Array(out.buffer, out.byteOffset + d + j * d, d);
    for (let i = 0; i < d; i++) view[i] = Math.round(w[i]! / scale);
    return { policy, bias, scale };
  });
  return {
    meta: { format: 1, dimensions: d, threshold, idfStep, policies: metaPolicies, trained },
    weights: out,
  };
}

export function decodeNgramModel(meta: NgramModelMeta, bytes: Uint8Array): NgramModel {
  const d = meta.dimensions;
  if (meta.format !== 1 || d !== NGRAM_DIMENSIONS || bytes.length !== d * (1 + meta.policies.length))
    throw new Error(
      `n-gram model: expected format 1 with ${NGRAM_DIMENSIONS} dimensions and ${d * (1 + meta.policies.length)} bytes of weights, found format ${meta.format}, ${d} dimensions, ${bytes.length} bytes`,
    );
  const idf = new Float32Array(d);
  for (let i = 0; i < d; i++) idf[i] = bytes[i]! * meta.idfStep;
  const weights = new Map<ModerationPolicyName, { bias: number; w: Float32Array }>();
  meta.policies.forEach(({ policy, bias, scale }, j) => {
    const q = new Int8Array(bytes.buffer, bytes.byteOffset + d + j * d, d);
    const w = new Float32Array(d);
    for (let i = 0; i < d; i++) w[i] = q[i]! * scale;
    weights.set(policy, { bias, w });
  });
  return { meta, idf, weights };
}

/**
 * The largest change quantising (encodeNgramModel, then decodeNgramModel) makes to a probability,
 * over the given texts: the unquantised idf and weights against the stored model made from them.
 */
export function quantisationDrift(
  idf: Float32Array,
  policies: Array<{ policy: ModerationPolicyName; bias: number; w: Float32Array }>,
  stored: NgramModel,
  texts: Iterable<{ text: string; policy: ModerationPolicyName }>,
): number {
  const exact: NgramModel = {
    meta: stored.meta,
    idf,
    weights: new Map(policies.map(({ policy, bias, w }) => [policy, { bias, w }])),
  };
  let drift = 0;
  for (const { text, policy } of texts)
    drift = Math.max(drift, Math.abs(probability(exact, text, policy) - probability(stored, text, policy)));
  return drift;
}

let builtIn: NgramModel | undefined;

/** The model shipped in server/models/text-ngram, read on first use (about 2 MB). */
export function builtInNgramModel(): NgramModel {
  builtIn ??= decodeNgramModel(
    JSON.parse(readFileSync(new URL('model.json', MODEL_URL), 'utf8')) as NgramModelMeta,
    readFileSync(new URL('weights.bin', MODEL_URL)),
  );
  return builtIn;
}
