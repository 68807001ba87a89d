import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  NGRAM_BUCKETS,
  NGRAM_DIMENSIONS,
  ngramFeatures,
} from '../../../src/engines/moderation/text/ngramFeatures.js';
import {
  builtInNgramModel,
  decodeNgramModel,
  encodeNgramModel,
  judge,
  ngramScore,
  probability,
  quantisationDrift,
  type NgramModel,
} from '../../../src/engines/moderation/text/ngramModel.js';
import { scoreTextDetailed } from '../../../src/engines/moderation/text/scoreText.js';
import {
  inverseDocumentFrequencies,
  trainNgramPolicies,
  type LabelledText,
  type TrainedPolicy,
} from '../../../src/engines/moderation/text/trainNgramModel.js';
import { UNSPENT } from '../../../scripts/labelledText.js';
import { FIXTURES } from './fixtures.js';
import { WARM_UP_SAMPLES } from '../../../src/engines/moderation/text/warmUpLexicons.js';

describe('ngramFeatures', () => {
  it('is a unit vector of sorted, unique indices in range, the same for the same text', () => {
    const v = ngramFeatures('The cat sat on the mat. The cat!');
    expect(v.index.length).toBeGreaterThan(20);
    let norm = 0;
    for (let k = 0; k < v.index.length; k++) {
      norm += v.value[k]! ** 2;
      expect(v.index[k]!).toBeGreaterThanOrEqual(0);
      expect(v.index[k]!).toBeLessThan(NGRAM_DIMENSIONS);
      if (k > 0) expect(v.index[k]!).toBeGreaterThan(v.index[k - 1]!);
    }
    expect(norm).toBeCloseTo(1, 5);
    expect(ngramFeatures('The cat sat on the mat. The cat!')).toEqual(v);
  });

  it('reads case and width the same, and words apart from character n-grams', () => {
    expect(ngramFeatures('ＨＥＬＬＯ World')).toEqual(ngramFeatures('hello world'));
    const v = ngramFeatures('kill');
    const words = [...v.index].filter((i) => i >= NGRAM_BUCKETS);
    expect(words).toHaveLength(1); // the word; no pair in a one-word text
    // the word, then the distinct n-grams of " kill ": k i l; " k" ki il ll "l "; " ki" kil ill "ll "; …
    expect(v.index.length).toBe(1 + 3 + 5 + 4 + 3);
  });

  it('reads unspaced Chinese as character n-grams', () => {
    const v = ngramFeatures('我们今天去公园');
    expect([...v.index].filter((i) => i < NGRAM_BUCKETS).length).toBeGreaterThan(20);
  });

  it('gives an empty text no features', () => {
    expect(ngramFeatures('   ').index.length).toBe(0);
  });
});

describe('ngramScore', () => {
  it('is 0 under the threshold, 0.5 at it, rising to 0.95 at certainty', () => {
    expect(ngramScore(0.79, 0.8)).toBe(0);
    expect(ngramScore(Number.NaN, 0.8)).toBe(0);
    expect(ngramScore(0.8, 0.8)).toBe(0.5);
    expect(ngramScore(0.9, 0.8)).toBeCloseTo(0.725, 4);
    expect(ngramScore(1, 0.8)).toBe(0.95);
  });
});

/** A made-up word ("zorp") in every violation: the model must learn it, inflected forms included. */
function toyData(): { labelled: LabelledText[]; ordinary: string[] } {
  const subjects = ['I', 'We', 'They', 'My brother', 'The neighbours', 'Everyone', 'You', 'Our team'];
  const objects = ['the car', 'the garden', 'the shop', 'the report', 'the window', 'the school', 'the dog'];
  const labelled: LabelledText[] = [];
  subjects.forEach((s, i) =>
    objects.forEach((o, j) => {
      const verb = (i + j) % 2 === 0 ? 'will zorp' : 'want to zorp';
      labelled.push({ text: `${s} ${verb} ${o} tonight.`, policy: 'violence', flag: true });
      labelled.push({ text: `${s} will paint ${o} tonight.`, policy: 'violence', flag: false });
    }),
  );
  const ordinary = objects.map((o) => `Please clean ${o} before the weekend and lock the door.`);
  return { labelled, ordinary };
}

/** The toy model as stored (quantised), with the unquantised idf and weights it was made from. */
function trainToy(): {
  model: NgramModel;
  idf: Float32Array;
  trained: TrainedPolicy[];
  labelled: LabelledText[];
} {
  const { labelled, ordinary } = toyData();
  const idf = inverseDocumentFrequencies([...labelled.map((l) => l.text), ...ordinary]);
  const trained = trainNgramPolicies(labelled, ordinary, idf, { c: 16, maxIterations: 200 });
  const { meta, weights } = encodeNgramModel({ by: 'test' }, 0.8, idf, trained);
  return { model: decodeNgramModel(meta, weights), idf, trained, labelled };
}

describe('trainNgramPolicies', () => {
  const { model, idf, trained, labelled } = trainToy();

  it('learns the violations apart from the ordinary sentences', () => {
    expect(probability(model, 'My brother will zorp the car tonight.', 'violence')).toBeGreaterThan(0.8);
    expect(probability(model, 'My brother will paint the car tonight.', 'violence')).toBeLessThan(0.2);
  });

  it('reads a form of the word it never saw through its character n-grams', () => {
    expect(probability(model, 'zorping', 'violence')).toBeGreaterThan(
      probability(model, 'painting', 'violence') + 0.2,
    );
  });

  it('answers 0 for a policy it was not trained for', () => {
    expect(probability(model, 'I will zorp the car.', 'hate')).toBe(0);
  });

  it('quantises its weights to within 0.02 of the unquantised probabilities', () => {
    expect(trained.map((t) => t.policy)).toEqual(['violence']);
    expect(quantisationDrift(idf, trained, model, labelled)).toBeLessThan(0.02);
  });

  it('refuses a weights file of the wrong size', () => {
    const { meta, weights } = encodeNgramModel({}, 0.8, model.idf, []);
    expect(() => decodeNgramModel(meta, weights.subarray(1))).toThrow(/bytes of weights/);
  });
});

describe('the built-in model', () => {
  const model = () => builtInNgramModel();
  const meta = () =>
    JSON.parse(readFileSync(new URL('../../../models/text-ngram/model.json', import.meta.url), 'utf8')) as {
      trained: { labelled: string[] };
    };

  it('answers all three policies, from its threshold 0.8', () => {
    expect(
      model()
        .meta.policies.map((p) => p.policy)
        .sort(),
    ).toEqual(['hate', 'nsfw', 'violence']);
    expect(model().meta.threshold).toBe(0.8);
  });

  it('was not trained on the unspent blind set it is measured with', () => {
    // docs/moderation.md measures the model on the newest blind set; it must stay unseen.
    const blinds = meta()
      .trained.labelled.map((f) => /^text-blind-(\d+)\.json$/.exec(f)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    const newest = Math.max(
      ...Array.from(
        readFileSync(join(FIXTURES, 'SOURCES.md'), 'utf8').matchAll(/text-blind-(\d+)\.json/g),
        (m) => Number(m[1]),
      ),
    );
    expect(blinds.length).toBeGreaterThan(5);
    expect(blinds).not.toContain(newest);
  });

  it('was trained on none of the unseen sets (UNSPENT: the newest blind set, the prompt set)', () => {
    expect(UNSPENT.length).toBeGreaterThan(0);
    for (const f of UNSPENT) expect(meta().trained.labelled).not.toContain(f);
  });

  it('leaves the ordinary warm-up sentences of every language alone', () => {
    for (const text of Object.values(WARM_UP_SAMPLES))
      for (const policy of ['nsfw', 'violence', 'hate'] as const)
        expect(judge(model(), text, policy).score, `${policy}: ${text}`).toBe(0);
  });

  it('does not overrule the lexicons where they read their evidence as negated', async () => {
    for (const text of [
      'We should not deport all the Muslims.',
      "Les immigrés sont tous des voleurs. C'est faux, bien sûr.",
    ]) {
      const r = await scoreTextDetailed(text, 'hate');
      expect(
        r.evidence.some((e) => e.negated),
        text,
      ).toBe(true);
      expect(
        r.model.score,
        `${text}: the model flags it (else this test shows nothing)`,
      ).toBeGreaterThanOrEqual(0.5);
      expect(r.score, text).toBe(r.lexiconScore);
      expect(r.score, text).toBeLessThan(0.5);
    }
  });

  it('can only raise the lexicons’ score: the answer is the higher of the two', async () => {
    for (const [text, policy] of [
      ['I will find you after school and break every bone in your body.', 'violence'],
      ['The weather in Lisbon was mild all week.', 'violence'],
      ['Send me nudes tonight, baby.', 'nsfw'],
    ] as const) {
      const r = await scoreTextDetailed(text, policy);
      expect(r.score).toBe(Math.max(r.lexiconScore, r.model.score));
    }
  });
});
