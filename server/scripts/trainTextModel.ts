/**
 * Trains the built-in n-gram text classifier and writes server/models/text-ngram/
 * (src/engines/moderation/text/ngramModel.ts; docs/moderation.md, "The n-gram classifier").
 *
 *   npx tsx scripts/extractOrdinaryText.ts /tmp/ordinary.json   # Debian packages, see that file
 *   npx tsx scripts/trainTextModel.ts /tmp/ordinary.json
 *
 * Labelled data: every text fixture set in test/fixtures/moderation except the unspent blind set
 * (UNSPENT), which stays unseen to measure the model. Ordinary text: up to ORDINARY_PER_LANGUAGE
 * texts per language (cut to ORDINARY_CHARS), drawn by a fixed hash; a text whose hash is a multiple
 * of 10 is never trained on, so that evaluateTextModel.ts can measure false flags on unseen ordinary text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  decodeNgramModel,
  encodeNgramModel,
  quantisationDrift,
} from '../src/engines/moderation/text/ngramModel.js';
import {
  inverseDocumentFrequencies,
  trainNgramPolicies,
  type LabelledText,
} from '../src/engines/moderation/text/trainNgramModel.js';
import { readCases, trainingFiles } from './labelledText.js';
import { ordinaryTextSplit } from './ordinaryTextSplit.js';

const MODEL_DIR = new URL('../models/text-ngram/', import.meta.url);
const THRESHOLD = 0.8;
const C = 16;

const files = trainingFiles();
const labelled: LabelledText[] = files.flatMap((f) =>
  readCases(f).map(({ text, policy, flag }) => ({ text, policy, flag })),
);
const { train: ordinary, perLanguage } = ordinaryTextSplit(process.argv[2] ?? '/tmp/ordinary.json');
console.log(
  `${labelled.length} labelled sentences from ${files.length} files; ${ordinary.length} ordinary texts`,
);
const started = Date.now();
const idf = inverseDocumentFrequencies([...labelled.map((l) => l.text), ...ordinary]);
const trained = trainNgramPolicies(labelled, ordinary, idf, { c: C, log: console.log });
const { meta, weights } = encodeNgramModel(
  {
    by: 'server/scripts/trainTextModel.ts',
    date: new Date().toISOString().slice(0, 10),
    labelled: files,
    labelledSentences: labelled.length,
    ordinary: 'Debian manual pages, fortunes, WordNet examples (scripts/extractOrdinaryText.ts)',
    ordinaryPerLanguage: perLanguage,
    c: C,
    iterations: Object.fromEntries(trained.map((t) => [t.policy, t.iterations])),
  },
  THRESHOLD,
  idf,
  trained,
);
// How far quantising (int8 weights, uint8 idf) moves the probabilities, over every labelled sentence.
const drift = quantisationDrift(idf, trained, decodeNgramModel(meta, weights), labelled);
console.log(
  `quantising (int8 weights, uint8 idf) moves a probability by at most ${drift.toFixed(4)} over the labelled sentences`,
);
mkdirSync(MODEL_DIR, { recursive: true });
writeFileSync(new URL('model.json', MODEL_DIR), JSON.stringify(meta, null, 2) + '\n');
writeFileSync(new URL('weights.bin', MODEL_DIR), weights);
console.log(`trained in ${((Date.now() - started) / 1000).toFixed(0)} s; wrote ${MODEL_DIR.pathname}`);
