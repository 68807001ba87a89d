/**
 * An optional local ONNX text classifier, run with onnxruntime-node, for operators who have a
 * stronger model than the built-in lexicons (e.g. a multilingual BERT toxicity classifier exported to
 * ONNX). It is named by configuration: MEDIAGEN_TEXT_CLASSIFIER_DIR is a directory holding
 * `model.onnx` and `classifier.json`:
 *
 * ```json
 * {
 *   "tokenizer": { "type": "wordpiece", "vocab": "vocab.txt", "lowercase": true, "maxLength": 256 },
 *   "inputs": { "ids": "input_ids", "mask": "attention_mask", "typeIds": "token_type_ids" },
 *   "output": "logits",
 *   "activation": "sigmoid",
 *   "labels": ["toxic", "sexual_explicit", "threat", "identity_attack"],
 *   "policies": { "nsfw": ["sexual_explicit"], "violence": ["threat"], "hate": ["identity_attack"] },
 *   "combine": "max"
 * }
 * ```
 *
 * - tokenizer `wordpiece` (BERT vocab.txt) or `bytes` (UTF-8 bytes as ids 0..255, for byte-level
 *   models); `maxLength` caps the sequence (longer text is cut).
 * - inputs: the model's input names; `mask` and `typeIds` are fed only when the model has them.
 * - activation: `softmax` (labels exclusive) or `sigmoid` (multi-label) over the output's last axis.
 * - policies: which labels count for each policy; a policy's score is the highest of its labels'
 *   probabilities. A policy without labels stays with the lexicons.
 * - combine: `max` (default: the higher of the model's and the lexicons' score, so a slur the model
 *   misses is still caught) or `replace` (the model alone decides its policies).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODERATION_POLICIES } from '@mediagen/core';
import type { ModerationPolicyName } from '../../types.js';
import { InferenceQueue } from '../inferenceQueue.js';
import { WordPieceTokenizer, type Encoded } from './wordPiece.js';

export interface OnnxClassifierConfig {
  tokenizer:
    | { type: 'wordpiece'; vocab: string; lowercase?: boolean; maxLength?: number }
    | { type: 'bytes'; maxLength?: number };
  inputs: { ids: string; mask?: string; typeIds?: string };
  output: string;
  activation: 'softmax' | 'sigmoid';
  labels: string[];
  policies: Partial<Record<ModerationPolicyName, string[]>>;
  combine?: 'max' | 'replace';
}

export interface TextClassifier {
  readonly id: string;
  readonly combine: 'max' | 'replace';
  /** Policies this classifier answers. */
  readonly policies: readonly ModerationPolicyName[];
  score(text: string, policy: ModerationPolicyName, signal?: AbortSignal): Promise<number>;
}

/** A classifier directory that cannot be used; the message names the file and the problem. */
export class TextClassifierConfigError extends Error {
  override name = 'TextClassifierConfigError';
}

function validate(raw: unknown, dir: string): OnnxClassifierConfig {
  const fail = (why: string): never => {
    throw new TextClassifierConfigError(`${join(dir, 'classifier.json')}: ${why}`);
  };
  if (typeof raw !== 'object' || raw === null) fail('must be a JSON object');
  const c = raw as Partial<OnnxClassifierConfig>;
  if (!c.tokenizer || (c.tokenizer.type !== 'wordpiece' && c.tokenizer.type !== 'bytes'))
    fail('tokenizer.type must be "wordpiece" or "bytes"');
  if (c.tokenizer!.type === 'wordpiece' && typeof c.tokenizer!.vocab !== 'string')
    fail('tokenizer.vocab is required');
  if (!c.inputs || typeof c.inputs.ids !== 'string') fail('inputs.ids (the token id input name) is required');
  if (typeof c.output !== 'string') fail('output (the logits output name) is required');
  if (c.activation !== 'softmax' && c.activation !== 'sigmoid')
    fail('activation must be "softmax" or "sigmoid"');
  if (!Array.isArray(c.labels) || c.labels.length === 0) fail('labels must be a non-empty array');
  if (!c.policies || typeof c.policies !== 'object') fail('policies must map policy names to label lists');
  for (const [policy, labels] of Object.entries(c.policies!)) {
    if (!(MODERATION_POLICIES as readonly string[]).includes(policy)) fail(`unknown policy "${policy}"`);
    for (const label of labels ?? [])
      if (!c.labels!.includes(label)) fail(`policy ${policy}: unknown label "${label}"`);
  }
  if (c.combine !== undefined && c.combine !== 'max' && c.combine !== 'replace')
    fail('combine must be "max" or "replace"');
  return c as OnnxClassifierConfig;
}

function activate(logits: Float32Array, activation: 'softmax' | 'sigmoid'): number[] {
  const values = [...logits];
  if (activation === 'sigmoid') return values.map((v) => 1 / (1 + Math.exp(-v)));
  const max = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Loads the classifier in `dir` (model.onnx + classifier.json) with onnxruntime-node. */
export async function loadOnnxTextClassifier(dir: string): Promise<TextClassifier> {
  let config: OnnxClassifierConfig;
  try {
    config = validate(JSON.parse(await readFile(join(dir, 'classifier.json'), 'utf8')), dir);
  } catch (error) {
    if (error instanceof TextClassifierConfigError) throw error;
    throw new TextClassifierConfigError(`${join(dir, 'classifier.json')}: ${(error as Error).message}`);
  }
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(join(dir, 'model.onnx'), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const maxLength = config.tokenizer.maxLength ?? 256;
  let encode: (text: string) => Encoded;
  if (config.tokenizer.type === 'wordpiece') {
    const tokenizer = WordPieceTokenizer.fromFile(join(dir, config.tokenizer.vocab), {
      lowercase: config.tokenizer.lowercase ?? true,
      maxLength,
    });
    encode = (text) => tokenizer.encode(text);
  } else {
    encode = (text) => {
      const ids = [...Buffer.from(text, 'utf8').subarray(0, maxLength)];
      if (ids.length === 0) ids.push(0);
      return { ids, mask: ids.map(() => 1) };
    };
  }
  if (!session.inputNames.includes(config.inputs.ids)) {
    throw new TextClassifierConfigError(
      `model.onnx has no input "${config.inputs.ids}" (it has ${session.inputNames.join(', ')})`,
    );
  }
  if (!session.outputNames.includes(config.output)) {
    throw new TextClassifierConfigError(
      `model.onnx has no output "${config.output}" (it has ${session.outputNames.join(', ')})`,
    );
  }
  const queue = new InferenceQueue();
  const labelIndex = new Map(config.labels.map((l, i) => [l, i]));
  const policies = (Object.keys(config.policies) as ModerationPolicyName[]).filter(
    (p) => (config.policies[p] ?? []).length > 0,
  );

  const probabilities = (text: string, signal?: AbortSignal) =>
    queue.run(async () => {
      const { ids, mask } = encode(text);
      const shape = [1, ids.length];
      const int64 = (values: number[]) =>
        new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), shape);
      const feeds: Record<string, InstanceType<typeof ort.Tensor>> = { [config.inputs.ids]: int64(ids) };
      if (config.inputs.mask && session.inputNames.includes(config.inputs.mask))
        feeds[config.inputs.mask] = int64(mask);
      if (config.inputs.typeIds && session.inputNames.includes(config.inputs.typeIds)) {
        feeds[config.inputs.typeIds] = int64(ids.map(() => 0));
      }
      const result = await session.run(feeds);
      const logits = result[config.output]!.data as Float32Array;
      if (logits.length !== config.labels.length) {
        throw new Error(`model output has ${logits.length} values for ${config.labels.length} labels`);
      }
      return activate(logits, config.activation);
    }, signal);

  return {
    id: `onnx:${dir}`,
    combine: config.combine ?? 'max',
    policies,
    async score(text, policy, signal) {
      const labels = config.policies[policy] ?? [];
      if (labels.length === 0) throw new Error(`the classifier has no labels for policy ${policy}`);
      const probs = await probabilities(text, signal);
      return Math.max(...labels.map((l) => probs[labelIndex.get(l)!]!));
    },
  };
}
