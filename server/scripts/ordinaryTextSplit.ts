/**
 * The ordinary texts of extractOrdinaryText.ts's file, split by a fixed hash into those the n-gram
 * classifier is trained on (at most ORDINARY_PER_LANGUAGE per language, cut to ORDINARY_CHARS) and
 * those kept out of training to measure its false flags (the hash a multiple of 10).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const ORDINARY_PER_LANGUAGE = 4000;
export const ORDINARY_CHARS = 600;

const bucket = (t: string) => createHash('sha1').update(t).digest().readUInt32BE(0);

export function ordinaryTextSplit(path: string): {
  train: string[];
  heldOut: Record<string, string[]>;
  perLanguage: Record<string, number>;
} {
  const corpus = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>;
  const train: string[] = [];
  const heldOut: Record<string, string[]> = {};
  const perLanguage: Record<string, number> = {};
  for (const [lang, texts] of Object.entries(corpus)) {
    const ranked = texts
      .map((t) => ({ t: t.slice(0, ORDINARY_CHARS), h: bucket(t) }))
      .sort((a, b) => a.h - b.h);
    heldOut[lang] = ranked.filter((x) => x.h % 10 === 0).map((x) => x.t);
    const mine = ranked
      .filter((x) => x.h % 10 !== 0)
      .slice(0, ORDINARY_PER_LANGUAGE)
      .map((x) => x.t);
    perLanguage[lang] = mine.length;
    train.push(...mine);
  }
  return { train, heldOut, perLanguage };
}
