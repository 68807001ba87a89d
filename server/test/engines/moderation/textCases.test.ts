import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModerationPolicyName } from '../../../src/engines/types.js';
import { moderationEngine } from '../../../src/engines/moderation/index.js';
import { TEXT_LANGUAGES } from '../../../src/engines/moderation/text/languages.js';
import { scoreTextDetailed } from '../../../src/engines/moderation/text/scoreText.js';
import { FIXTURES } from './fixtures.js';

type Cases = Record<string, Record<ModerationPolicyName, { flag: string[]; ok: string[] }>>;
const load = (file: string) => (JSON.parse(readFileSync(FIXTURES + file, 'utf8')) as { cases: Cases }).cases;
const POLICIES: ModerationPolicyName[] = ['nsfw', 'violence', 'hate'];
const cases = load('text-cases.json');

/** The development set (the first blind set folded in) and the held-out set: every sentence must pass. */
const rows = (['text-cases.json', 'text-heldout.json'] as const).flatMap((set) =>
  Object.entries(load(set)).flatMap(([lang, policies]) =>
    POLICIES.flatMap((policy) => [
      ...policies[policy].flag.map((text) => ({ set, lang, policy, text, flag: true })),
      ...policies[policy].ok.map((text) => ({ set, lang, policy, text, flag: false })),
    ]),
  ),
);

describe('text moderation: hand-written sentences in the 12 spec languages', () => {
  beforeAll(async () => {
    await scoreTextDetailed('warm up', 'nsfw');
  });

  it('has flagged and ordinary sentences for every language and policy', () => {
    expect(Object.keys(cases).sort()).toEqual([...TEXT_LANGUAGES].sort());
    for (const lang of TEXT_LANGUAGES) {
      for (const policy of POLICIES) {
        expect(cases[lang]![policy].flag.length, `${lang} ${policy} flag`).toBeGreaterThanOrEqual(3);
        expect(cases[lang]![policy].ok.length, `${lang} ${policy} ok`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it.each(rows)('$set $lang $policy flag=$flag: $text', async ({ text, policy, flag }) => {
    const details = await scoreTextDetailed(text, policy);
    const why = JSON.stringify(details.evidence.map((e) => [e.lang, e.rule, e.term, e.weight.toFixed(2)]));
    if (flag) expect(details.score, why).toBeGreaterThanOrEqual(0.5);
    else expect(details.score, why).toBeLessThan(0.5);
  });

  it('goes through the engine interface with the same score', async () => {
    const text = 'I will kill you if you come back here.';
    expect(await moderationEngine.scoreText(text, 'violence')).toBe(
      (await scoreTextDetailed(text, 'violence')).score,
    );
  });
});
