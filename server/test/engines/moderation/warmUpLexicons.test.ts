/**
 * warmUpLexicons (run by the engine's warmUp, before the server says it is ready) compiles the lexicon
 * of every language, so no request pays for it; its sample sentences are ordinary in every policy.
 */
import { describe, expect, it } from 'vitest';
import { TEXT_LANGUAGES } from '../../../src/engines/moderation/text/languages.js';
import { compiledLanguages, scoreTextWithLanguages } from '../../../src/engines/moderation/text/scoreText.js';
import { WARM_UP_SAMPLES, warmUpLexicons } from '../../../src/engines/moderation/text/warmUpLexicons.js';

describe('warmUpLexicons', () => {
  it('compiles every language', async () => {
    expect(compiledLanguages()).toEqual([]);
    await warmUpLexicons();
    expect([...compiledLanguages()].sort()).toEqual([...TEXT_LANGUAGES].sort());
  });

  it('reads an ordinary sentence in each language, scored as ordinary in every policy', () => {
    for (const lang of TEXT_LANGUAGES) {
      for (const policy of ['nsfw', 'violence', 'hate'] as const) {
        expect(scoreTextWithLanguages(WARM_UP_SAMPLES[lang], policy, [lang]).raw, `${lang} ${policy}`).toBe(
          0,
        );
      }
    }
  });
});
