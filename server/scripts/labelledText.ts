/**
 * The hand-written sentences the n-gram classifier learns from: every text fixture set in
 * test/fixtures/moderation except the unspent blind set (UNSPENT), which stays unseen to measure it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { ModerationPolicyName } from '../src/engines/types.js';
import type { LabelledText } from '../src/engines/moderation/text/trainNgramModel.js';

export const FIXTURES = new URL('../../test/fixtures/moderation/', import.meta.url);
/** Unseen sets (test/fixtures/moderation/SOURCES.md): the newest blind set and the prompt set, never trained on. */
export const UNSPENT = ['text-blind-17.json', 'text-prompts-2.json'];

type Cases = Record<string, Record<string, Record<string, unknown>>>;

/** The sentences of one fixture file, with their policy and whether they must be flagged. */
export function readCases(file: string): Array<LabelledText & { lang: string }> {
  const { cases } = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as { cases: Cases };
  const out: Array<LabelledText & { lang: string }> = [];
  for (const [lang, pols] of Object.entries(cases))
    for (const [policy, kinds] of Object.entries(pols))
      for (const [kind, list] of Object.entries(kinds)) {
        if (!Array.isArray(list) || (kind !== 'flag' && kind !== 'ok')) continue;
        for (const item of list as Array<string | { text: string }>) {
          const text = typeof item === 'string' ? item : item.text;
          out.push({ lang, text, policy: policy as ModerationPolicyName, flag: kind === 'flag' });
        }
      }
  return out;
}

/** The files trained on, sorted. */
export function trainingFiles(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => /^text-.*\.json$/.test(f) && !UNSPENT.includes(f))
    .sort();
}
