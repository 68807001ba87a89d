/**
 * The features of the built-in n-gram text classifier (ngramModel.ts): hashed character n-grams of
 * one to four characters inside each word (a word padded with a space on each side, so "kill" gives
 * " k", "ki", …, "ll "), and hashed words and word pairs. Character n-grams read every language the
 * same way, Chinese and Japanese included (a "word" there is a run of characters between spaces), and
 * catch inflections and misspellings a word list misses; word pairs keep a little order ("not kill").
 *
 * Counts are damped (1 + ln count), weighted by the model's inverse document frequencies and scaled
 * to unit length, so a long text and a short one are read on the same scale. The trainer
 * (trainNgramModel.ts) and the classifier use this one function, so the two cannot drift apart.
 */

/** Buckets for character n-grams; word features use as many again, after them. */
export const NGRAM_BUCKETS = 1 << 18;
export const NGRAM_DIMENSIONS = 2 * NGRAM_BUCKETS;
const MAX_CHAR_GRAM = 4;

/** A sparse vector: sorted unique indices and their values. */
export interface SparseVector {
  index: Int32Array;
  value: Float32Array;
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across runs and platforms. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hash(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

const WORD = /[\p{L}\p{M}\p{N}_]+/gu;

/** Raw counts of a text's n-grams, by bucket. */
export function ngramCounts(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (i: number) => counts.set(i, (counts.get(i) ?? 0) + 1);
  const lower = text.normalize('NFKC').toLowerCase();
  for (const word of lower.split(/\s+/)) {
    if (!word) continue;
    // FNV-1a is incremental: the hash of chars i..i+n-1 extends that of i..i+n-2, so each n-gram
    // costs one step and no string.
    const chars = Array.from(` ${word} `);
    for (let i = 0; i < chars.length; i++) {
      let h = FNV_OFFSET;
      for (let n = 1; n <= MAX_CHAR_GRAM && i + n <= chars.length; n++) {
        const c = chars[i + n - 1]!;
        for (let k = 0; k < c.length; k++) h = Math.imul(h ^ c.charCodeAt(k), FNV_PRIME);
        if (n === 1 && c === ' ') continue;
        add((h >>> 0) % NGRAM_BUCKETS);
      }
    }
  }
  const words = lower.match(WORD) ?? [];
  for (let i = 0; i < words.length; i++) {
    add(NGRAM_BUCKETS + (hash(`w:${words[i]}`) % NGRAM_BUCKETS));
    if (i + 1 < words.length) add(NGRAM_BUCKETS + (hash(`w:${words[i]} ${words[i + 1]}`) % NGRAM_BUCKETS));
  }
  return counts;
}

/**
 * The classifier's input: damped counts times `idf` (one weight per dimension; omitted while the
 * trainer is still counting), scaled to unit length.
 */
export function ngramFeatures(text: string, idf?: Float32Array): SparseVector {
  const counts = ngramCounts(text);
  const index = Int32Array.from(counts.keys()).sort();
  const value = new Float32Array(index.length);
  let norm = 0;
  for (let k = 0; k < index.length; k++) {
    const i = index[k]!;
    const v = (1 + Math.log(counts.get(i)!)) * (idf ? idf[i]! : 1);
    value[k] = v;
    norm += v * v;
  }
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let k = 0; k < value.length; k++) value[k] = value[k]! * scale;
  }
  return { index, value };
}
