import { describe, expect, it } from 'vitest';
import {
  NSFW_CLASS_NAMES,
  nsfwScore,
  type NsfwClassProbabilities,
} from '../../../src/engines/moderation/nsfwScore.js';

const p = (partial: Partial<NsfwClassProbabilities>): NsfwClassProbabilities => {
  const full = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0, ...partial };
  const rest = 1 - Object.values(full).reduce((a, b) => a + b, 0);
  return { ...full, Neutral: full.Neutral + Math.max(0, rest) };
};

describe('nsfwScore: nsfwjs classes to the spec reference points', () => {
  it('scores an ordinary photo or drawing 0.01-0.03', () => {
    expect(nsfwScore(p({ Neutral: 1 }))).toBe(0.01);
    expect(nsfwScore(p({ Neutral: 0.97, Drawing: 0.01, Porn: 0.01, Sexy: 0.01 }))).toBeGreaterThanOrEqual(
      0.01,
    );
    expect(nsfwScore(p({ Neutral: 0.97, Drawing: 0.01, Porn: 0.01, Sexy: 0.01 }))).toBeLessThanOrEqual(0.03);
    expect(nsfwScore(p({ Drawing: 0.98 }))).toBeLessThanOrEqual(0.03);
  });

  it('scores swimwear (mostly Sexy) about 0.45 and never flags it at the default threshold', () => {
    const swimwear = nsfwScore(p({ Sexy: 0.95, Porn: 0.02 }));
    expect(swimwear).toBeGreaterThan(0.4);
    expect(swimwear).toBeLessThan(0.5);
    expect(nsfwScore(p({ Sexy: 1 }))).toBe(0.45);
  });

  it('scores lingerie / strongly suggestive (Sexy and Porn mixed) 0.70-0.80', () => {
    const lingerie = nsfwScore(p({ Sexy: 0.5, Porn: 0.5 }));
    expect(lingerie).toBeGreaterThanOrEqual(0.7);
    expect(lingerie).toBeLessThanOrEqual(0.8);
    expect(nsfwScore(p({ Sexy: 0.4, Porn: 0.6 }))).toBeLessThanOrEqual(0.8);
  });

  it('scores nudity / sexual activity (Porn, Hentai) 0.90 and above', () => {
    expect(nsfwScore(p({ Porn: 0.9, Sexy: 0.1 }))).toBeGreaterThanOrEqual(0.9);
    expect(nsfwScore(p({ Porn: 1 }))).toBe(1);
    expect(nsfwScore(p({ Hentai: 1 }))).toBe(0.9);
  });

  it('is monotonic in each explicit class', () => {
    let last = -1;
    for (let porn = 0; porn <= 1.0001; porn += 0.05) {
      const s = nsfwScore(p({ Porn: Math.min(1, porn) }));
      expect(s).toBeGreaterThanOrEqual(last);
      last = s;
    }
  });

  it('normalises probabilities that do not sum to exactly 1', () => {
    expect(nsfwScore({ Drawing: 0, Hentai: 0, Neutral: 0, Porn: 2, Sexy: 0 })).toBe(1);
  });

  it('rejects invalid probabilities', () => {
    expect(() => nsfwScore({ Drawing: 0, Hentai: 0, Neutral: -1, Porn: 0, Sexy: 0 })).toThrow(RangeError);
    expect(() => nsfwScore({ Drawing: 0, Hentai: 0, Neutral: Number.NaN, Porn: 0, Sexy: 0 })).toThrow(
      RangeError,
    );
    expect(() => nsfwScore({ Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 })).toThrow(RangeError);
    expect(NSFW_CLASS_NAMES).toHaveLength(5);
  });
});
