/**
 * Regenerates the measured sections of docs/moderation.md (between their `<!-- name:start -->` and
 * `<!-- name:end -->` markers; the prose around them is hand-written):
 *   - text-accuracy: precision and recall per language and per policy on the sentence sets in
 *     test/fixtures/moderation (development, held-out, the blind sets text-blind-2.json to
 *     text-blind-16.json (all now spent; 8 to 10 violence only), the prompt sets, and
 *     text-blind-17.json; a set is skipped when absent), with every error on the unspent ones;
 *   - image-models: the three nsfwjs models on the ordinary photos (load time, latency, top class,
 *     scores), the measurement the default model was chosen by;
 *   - image-scores: each ordinary photo's score with the default model.
 * Run: `npx tsx server/test/engines/moderation/report/writeModerationDoc.ts [--models=MobileNetV2,...]`
 * or with `--text-only` to regenerate text-accuracy alone (no image model is loaded).
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeToSquareRgb } from '../../../../src/engines/moderation/decodeImage.js';
import {
  DEFAULT_NSFW_MODEL,
  NSFW_MODEL_NAMES,
  nsfwImageClassifier,
  type NsfwModelName,
} from '../../../../src/engines/moderation/nsfwImage.js';
import { nsfwScore, type NsfwClassProbabilities } from '../../../../src/engines/moderation/nsfwScore.js';
import { TEXT_LANGUAGES } from '../../../../src/engines/moderation/text/languages.js';
import { scoreTextDetailed } from '../../../../src/engines/moderation/text/scoreText.js';
import type { ModerationPolicyName } from '../../../../src/engines/types.js';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const fixtures = join(root, 'test/fixtures/moderation');
const POLICIES: ModerationPolicyName[] = ['nsfw', 'violence', 'hate'];

type Cases = Record<string, Record<ModerationPolicyName, { flag: string[]; ok: string[] }>>;

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(0)}%`);
const precision = (c: Counts) => pct(c.tp, c.tp + c.fp);
const recall = (c: Counts) => pct(c.tp, c.tp + c.fn);

interface SentenceSet {
  file: string;
  name: string;
  about: string;
  /** List every error under the tables. */
  listErrors?: boolean;
  /** Skip the set when its file is absent instead of failing. */
  optional?: boolean;
}

const SETS: SentenceSet[] = [
  {
    file: 'text-cases.json',
    name: 'Development set',
    about:
      'written together with the lexicons; the lexicons were tuned until all pass (a regression test, not a measure). It now also holds the former blind set (78 sentences: 18 of its 39 violations caught and no false flag before its misses were used to write the construction rules) and hard negatives in every language (news about violence, negations, cooking and sports idioms). The round that used the misses of the second and third blind sets added, in each of the 12 languages and phrased afresh, examples of each family it covered (veiled threats, passive and bounty calls to kill, commercial sex offers, crude sex phrasings, disability and misogynist hate) and hard negatives for each new word (spa, barber and repair ads, wet-floor warnings, history books, reports of slurs, laundry that is hung)',
  },
  {
    file: 'text-heldout.json',
    name: 'Held-out set',
    about:
      'written after the lexicons; first measured at 135 of 156 right (all 21 errors missed violations, no false flag), then generic misses were fixed (participles of "expel", "break your face" threats, "have sex with"), so it is no longer blind',
  },
  {
    file: 'text-blind-2.json',
    name: 'Second blind set, spent',
    about:
      "written by someone who never saw the lexicons. First measured at 78 of 144 violations caught (54%: nsfw 48%, violence 48%, hate 67%) with one false flag, before anything changed. Its misses were then read by the maintainer, and phrasings like them were given as examples to the round of ja/ko/zh rules that followed, so the figures below are optimistic, above all for ja, ko and zh. In the next round its misses and the third set's were read family by family to write rules in all 12 languages, so it is now spent",
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-blind-3.json',
    name: 'Third blind set, spent',
    about:
      "written by another annotator who never saw the lexicons, the engine or the other sets. Measured once, after the last rule change and before anything changed, at 76 of 144 violations caught (53%: nsfw 42%, violence 42%, hate 75%) at 97% precision (two Spanish false flags). Its misses and the second set's were then read family by family (veiled threats, passive and bounty calls to kill, commercial sex offers, crude sex phrasings, disability and misogynist hate, reported slurs and history) to write the next round of rules in all 12 languages, so the figures below are optimistic; a fourth blind set, never seen, measures that round",
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-blind-4.json',
    name: 'Fourth blind set, spent',
    about:
      "written by a third annotator who never saw the lexicons, the engine or the other sets (432 sentences: 6 violations and 6 ordinary sentences per language and policy). Recall / precision measured once at each stage: before round 3 48% / 97%, after round 3 57% / 98%, after round 4 65% / 98%. Round 5 then read its errors and the fifth set's, family by family, so the figures below say only that the rules cover it; the sixth blind set measures round 5",
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-blind-5.json',
    name: 'Fifth blind set, spent',
    about:
      'written by a fourth annotator who never saw the lexicons, the engine or the other sets (432 sentences, same shape), kept outside the repository until round 4 was done. Recall / precision measured once at each stage: before round 3 39% / 91%, after round 3 50% / 93%, after round 4 55% / 94%. Round 5 read its errors, so it is spent like the fourth',
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-blind-6.json',
    name: 'Sixth blind set, spent',
    about:
      'written by two more annotators (six languages each) who never saw the lexicons, the engine or the other sets (576 sentences: 8 violations and 8 ordinary sentences per language and policy), kept outside the repository until round 5 was done. Recall / precision measured once before round 5 at 54% / 94% and once after it at 70% / 97% (nsfw 67%, violence 63%, hate 80%; 6 false flags). Round 6 then read its errors, so the figures below say only that the rules cover it; the seventh blind set measures round 6',
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-blind-7.json',
    name: 'Seventh blind set, spent',
    about:
      'written by two more annotators (six languages each, paired differently from the sixth) who never saw the lexicons, the engine or the other sets (576 sentences, same shape), kept outside the repository until round 6 was done. Measured once before round 6 at 62% recall / 95% precision (nsfw 56%, violence 48%, hate 82%; 9 false flags) and after it at 65% / 95%. Round 10 then read its errors, so the figures below say only that the rules cover it; the eleventh blind set measures round 10',
    optional: true,
  },
  {
    file: 'text-blind-8.json',
    name: 'Eighth blind set (violence), spent',
    about:
      'written by another annotator who never saw the lexicons, the engine or the other sets, for the violence policy only: depictions and narratives of blows against people (punches, kicks, stomping, beatings with objects; named, pronoun and noun agents; injuries) and hard negatives (sports, idioms, blows to objects, games, cooking, first aid), 14 of each per language. Measured once before round 7 at 7% recall / 92% precision (1 false flag) and once after it at 63% / 98% (2 false flags). Round 8 then read its errors, so the figures below say only that the rules cover it; the ninth blind set measures round 8',
    optional: true,
  },
  {
    file: 'text-blind-9.json',
    name: 'Ninth blind set (violence), spent',
    about:
      'written by another annotator who never saw the lexicons, the engine or the other sets, for the violence policy only: depictions and narratives of violence against people in many forms (blows of every kind, weapons, choking, burning, drowning, torture; roles and passives as agents; injuries) and hard negatives (sport, stage combat, idioms, objects, food, nature, animals, accidents), 14 of each per language; kept outside the repository until round 8 was done. Measured before round 7 at 3% recall, after round 7 at 44% and after round 8 at 70%, each at 100% precision. Round 9 then read its errors, so the figures below say only that the rules cover it; the tenth blind set measures round 9',
    optional: true,
  },
  {
    file: 'text-blind-10.json',
    name: 'Tenth blind set (violence), spent',
    about:
      'written by another annotator who never saw the lexicons, the engine or the other sets, for the violence policy only, with scenes of its own in each language: depictions, narratives, captions and requests for depictions of violence against people in many forms and hard negatives, 14 of each per language; kept outside the repository until round 9 was done. Measured before round 9 at 46% recall / 99% precision (one Spanish false flag) and after it at 54% / 99%. Round 10 then read its errors, so the figures below say only that the rules cover it; the eleventh blind set measures round 10',
    optional: true,
  },
  {
    file: 'text-blind-11.json',
    name: 'Eleventh blind set, spent',
    about:
      'written by two more annotators (six languages each) who never saw the lexicons, the engine or the other sets, for all three policies (576 sentences: 8 violations and 8 hard negatives per language and policy; the violence violations 4 threats or incitements and 4 depictions), kept outside the repository until round 10 was done. Measured once before round 10 at 75.3% recall / 99.5% precision (nsfw 64%, violence 72%, hate 91%; 1 false flag) and once after it at 79.9% / 99.6% (nsfw 66%, violence 83%, hate 91%; 1 false flag). Round 11 then read its errors, so the figures below say only that the rules cover it; the twelfth blind set measures round 11',
    optional: true,
  },
  {
    file: 'text-blind-12.json',
    name: 'Twelfth blind set, spent',
    about:
      'written by two more annotators (six languages each) who never saw the lexicons, the engine or the other sets, for all three policies (576 sentences, the same shape as the eleventh, asked to reach wider: workplaces, schools, dating apps, gaming chats, reviews, fan fiction and AI prompts, indirect phrasings and slang), kept outside the repository until round 11 was done. Measured once before round 11 at 63.5% recall / 98.4% precision (nsfw 59%, violence 55%, hate 76%; 3 false flags) and once after it at 70.8% / 98.6% (nsfw 71%, violence 59%, hate 82%; 3 false flags). Round 12 then read its errors, so the figures below say only that the rules cover it; the thirteenth blind set measures round 12',
    optional: true,
  },
  {
    file: 'text-blind-13.json',
    name: 'Thirteenth blind set, spent',
    about:
      'written by two more annotators (six languages each) who never saw the lexicons, the engine or the other sets, for all three policies (576 sentences, the same shape as the twelfth, asked to reach wider still: sports fans, landlords, delivery chats, school parents, marketplaces, political comments, song lyrics and memes, roleplay, reviews; questions, conditionals, lists and hashtags), kept outside the repository until round 12 was done. Measured before round 12 at 69.4% recall / 98.0% precision (4 false flags), after it at 74.3% / 98.2% with the lexicons alone, and at 84.7% / 98.4% (4 false flags) with the n-gram classifier beside them. Round 13 then read its errors and the classifier was retrained on it, so the figures below say only that both cover it; the fourteenth blind set measures round 13',
    optional: true,
  },
  {
    file: 'text-blind-14.json',
    name: 'Fourteenth blind set, spent',
    about:
      'written by two more annotators (six languages each) who never saw the lexicons, the n-gram classifier, the engine or the other sets, for all three policies (576 sentences, the same shape as the thirteenth; one annotator notes that its en, es, de, it and pt sentences share some scenes and sentence patterns), kept outside the repository until round 13 was done. Measured before round 13 at 73.6% recall with the lexicons alone and 83.7% / 97.6% precision (6 false flags) with the classifier; after round 13 at 74.7% / 98.2% (4 false flags) alone and 84.7% / 97.6% (6 false flags) with the classifier; after the precision pass over the older lexicons at 74.3% and 84.4% (the same false flags). Round 14 then read its errors and the classifier was retrained on it, so the figures below say only that both cover it; the fifteenth blind set measures round 14',
    optional: true,
  },
  {
    file: 'text-blind-15.json',
    name: 'Fifteenth blind set, spent',
    about:
      'written by two more annotators (six languages each: en, de, ru, ar, ja, pt and fr, es, it, nl, zh, ko) who never saw the lexicons, the n-gram classifier, the engine or the other sets, for all three policies (576 sentences, the same shape as the fourteenth; neither wrote sexual content involving minors), kept outside the repository until round 14 was done. Measured before round 14 at 70.5% recall with the lexicons alone and 83.7% / 99.6% precision (1 false flag) with the classifier, after the precision pass over the older lexicons at 69.4% and 83.3%, and after round 14 at 69.8% and 85.4% / 99.6% (the same false flag). Round 15 then read its errors and the classifier was retrained on it, so the figures below say only that both cover it; the sixteenth blind set measures round 15',
    optional: true,
  },
  {
    file: 'text-blind-16.json',
    name: 'Sixteenth blind set, spent',
    about:
      'written by two more annotators (six languages each: en, zh, ja, ko, ar, ru and fr, es, de, it, pt, nl) who never saw the lexicons, the n-gram classifier, the engine or the other sets, for all three policies (572 sentences: the same shape as the fifteenth, less four sentences the annotators wrote word for word as in earlier sets; neither wrote sexual content involving minors), kept outside the repository until round 15 was done. Measured before round 15 at 67.2% recall with the lexicons alone and 81.9% / 99.2% precision (2 false flags) with the classifier, and after round 15 at 68.6% and 84.0% / 99.2% (2 false flags). Round 16 then read its errors and the classifier was retrained on it, so the figures below say only that both cover it; the seventeenth blind set measures round 16',
    optional: true,
  },
  {
    file: 'text-prompts-1.json',
    name: 'Generation prompts, first set, spent',
    about:
      "image and video generation prompts, the most common text this API moderates: per language 12 ordinary prompts written close to a policy's words (swimwear and couples, knights and battle paintings, people named by origin or religion) and 6 violating ones (adults only), 216 in all, written by one more annotator who never saw the system, after round 15. Measured after round 15 at 70.8% recall (hate 33%) with 1 false flag. Round 16 then read its errors and the classifier was retrained on it, so the figures below say only that both cover it; the second prompt set measures round 16",
    optional: true,
  },
  {
    file: 'text-blind-17.json',
    name: 'Seventeenth blind set',
    about:
      "written by two more annotators (six languages each: en, zh, ja, ko, ar, ru and fr, es, de, it, pt, nl) who never saw the lexicons, the n-gram classifier, the engine or the other sets, for all three policies (576 sentences of the sixteenth's shape; neither wrote sexual content involving minors), kept outside the repository until round 16 was done, never used to change a rule and never trained on. 43 sentences that were near copies of sentences in earlier sets (character trigram overlap of 0.6 or more) were taken out before it was measured, leaving 533. Measured before round 16 at 68.8% recall with the lexicons alone and 86.7% / 97.0% precision (7 false flags) with the classifier, and after round 16's rules, before retraining, at 69.2% and 87.1%; the figures below, after round 16 and the retrained classifier, with the classifier beside the lexicons, are the honest estimate",
    listErrors: true,
    optional: true,
  },
  {
    file: 'text-prompts-2.json',
    name: 'Generation prompts, second set, unseen',
    about:
      "image and video generation prompts: per language 12 ordinary prompts close to a policy's words and 9 violating ones (3 per policy, adults only; the hateful ones vary the group, the animal and the form: vermin, caricatures, a mob attacking a group), written by one more annotator who never saw the system, before round 16's rules were merged, never used to change a rule and never trained on. 21 near copies of earlier sets' sentences were taken out, leaving 231. Measured before round 16 at 73.3% recall (hate 33%) with no false flag, and after round 16's rules, before retraining, at 82.9% (hate 58%); the figures below are after round 16",
    listErrors: true,
    optional: true,
  },
];

async function textAccuracy(): Promise<string> {
  const out: string[] = [];
  for (const set of SETS) {
    const path = join(fixtures, set.file);
    if (set.optional && !existsSync(path)) continue;
    const { cases } = JSON.parse(await readFile(path, 'utf8')) as { cases: Cases };
    const byLang = new Map<string, Counts>();
    const byPolicy = new Map<ModerationPolicyName, Counts>(POLICIES.map((p) => [p, zero()]));
    const total = zero();
    const lexiconsAlone = zero();
    const misses: string[] = [];
    for (const lang of TEXT_LANGUAGES) {
      const c = zero();
      for (const policy of POLICIES) {
        const sets = cases[lang]?.[policy];
        if (!sets) continue;
        for (const [expected, texts] of [
          [true, sets.flag],
          [false, sets.ok],
        ] as const) {
          for (const text of texts) {
            const { score, lexiconScore } = await scoreTextDetailed(text, policy);
            const flagged = score >= 0.5;
            const byLexicons = lexiconScore >= 0.5;
            lexiconsAlone[byLexicons ? (expected ? 'tp' : 'fp') : expected ? 'fn' : 'tn'] += 1;
            const key = flagged ? (expected ? 'tp' : 'fp') : expected ? 'fn' : 'tn';
            c[key] += 1;
            byPolicy.get(policy)![key] += 1;
            total[key] += 1;
            if (flagged !== expected) {
              misses.push(
                `| ${lang} | ${policy} | ${expected ? 'missed' : 'false flag'} | ${score.toFixed(2)} | ${expected ? '' : byLexicons ? 'lexicons' : 'n-gram model'} | ${text} |`,
              );
            }
          }
        }
      }
      byLang.set(lang, c);
    }
    out.push(`#### ${set.name} (\`test/fixtures/moderation/${set.file}\`)`, '', `${set.about}.`, '');
    out.push('| Language | Violations | Ordinary | True flags | False flags | Missed | Precision | Recall |');
    out.push('|---|---|---|---|---|---|---|---|');
    for (const [lang, c] of byLang) {
      out.push(
        `| ${lang} | ${c.tp + c.fn} | ${c.tn + c.fp} | ${c.tp} | ${c.fp} | ${c.fn} | ${precision(c)} | ${recall(c)} |`,
      );
    }
    out.push(
      `| **all** | ${total.tp + total.fn} | ${total.tn + total.fp} | ${total.tp} | ${total.fp} | ${total.fn} | ${precision(total)} | ${recall(total)} |`,
    );
    out.push(
      '',
      `The lexicons alone: precision ${precision(lexiconsAlone)}, recall ${recall(lexiconsAlone)} (${lexiconsAlone.tp} true flags, ${lexiconsAlone.fp} false); the n-gram classifier adds ${total.tp - lexiconsAlone.tp} true ${total.tp - lexiconsAlone.tp === 1 ? 'flag' : 'flags'} and ${total.fp - lexiconsAlone.fp} false.`,
    );
    out.push('', '| Policy | Precision | Recall |', '|---|---|---|');
    for (const [policy, c] of byPolicy) out.push(`| ${policy} | ${precision(c)} | ${recall(c)} |`);
    out.push('');
    if (set.listErrors && misses.length > 0) {
      out.push(
        `Every error on the ${set.name.toLowerCase()}:`,
        '',
        '| Language | Policy | Error | Score | Flagged by | Sentence |',
        '|---|---|---|---|---|---|',
      );
      out.push(...misses, '');
    }
  }
  return out.join('\n');
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function imageModels(models: NsfwModelName[]): Promise<{ models: string; scores: string }> {
  const photos = (await readdir(fixtures)).filter((f) => f.endsWith('.jpg')).sort();
  const rows: string[] = [];
  let scoreRows: string[] = [];
  for (const name of models) {
    const t0 = performance.now();
    const classifier = await nsfwImageClassifier(name);
    const loadMs = performance.now() - t0;
    const times: number[] = [];
    const results: Array<{ photo: string; p: NsfwClassProbabilities; score: number }> = [];
    for (const photo of photos) {
      const { data } = await decodeToSquareRgb(await readFile(join(fixtures, photo)), classifier.inputSize);
      await classifier.classifyRgb(data);
      let p: NsfwClassProbabilities | undefined;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        p = await classifier.classifyRgb(data);
        times.push(performance.now() - t);
      }
      results.push({ photo, p: p!, score: nsfwScore(p!) });
    }
    const top = (p: NsfwClassProbabilities) =>
      (Object.entries(p) as Array<[string, number]>).sort((a, b) => b[1] - a[1])[0]![0];
    const neutral = results.filter((r) => top(r.p) === 'Neutral').length;
    const benign = results.filter((r) => ['Neutral', 'Drawing'].includes(top(r.p))).length;
    const scores = results.map((r) => r.score);
    rows.push(
      `| ${name}${name === DEFAULT_NSFW_MODEL ? ' (default)' : ''} | ${classifier.runtime === 'folded' ? 'BatchNorm folded' : 'as shipped'} | ${classifier.inputSize} px | ${(loadMs / 1000).toFixed(1)} s | ${median(times).toFixed(0)} ms | ${neutral} / ${photos.length} | ${benign} / ${photos.length} | ${Math.max(...scores).toFixed(3)} | ${(scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(3)} |`,
    );
    if (name === DEFAULT_NSFW_MODEL) {
      scoreRows = results.map(
        (r) =>
          `| ${r.photo} | ${r.score.toFixed(4)} | ${top(r.p)} | ${(
            Object.entries(r.p) as Array<[string, number]>
          )
            .map(([k, v]) => `${k} ${v.toFixed(3)}`)
            .join(', ')} |`,
      );
    }
  }
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`;
  return {
    models: [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine} (shared machine: latencies are inflated by the load; compare the rows with each other). ${photos.length} ordinary photos, median of 3 classifier calls each on the decoded raster.`,
      '',
      '| Model | Runs as | Input | Load + warm-up | Classify (median) | Top class Neutral | Top class Neutral or Drawing | Highest nsfw score | Mean nsfw score |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
    scores: [
      `nsfwjs ${DEFAULT_NSFW_MODEL}, after decoding, border trim and resize (the engine's own path).`,
      '',
      '| Photo | nsfw score | Top class | Class probabilities |',
      '|---|---|---|---|',
      ...scoreRows,
    ].join('\n'),
  };
}

function replaceSection(doc: string, name: string, body: string): string {
  const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  const section = `<!-- ${name}:start -->\n${body.trim()}\n<!-- ${name}:end -->`;
  if (!re.test(doc)) throw new Error(`docs/moderation.md has no ${name} markers`);
  return doc.replace(re, section);
}

async function main() {
  const arg = process.argv.find((a) => a.startsWith('--models='));
  const models = (arg ? arg.slice('--models='.length).split(',') : [...NSFW_MODEL_NAMES]) as NsfwModelName[];
  const docPath = join(root, 'docs/moderation.md');
  let doc = await readFile(docPath, 'utf8');
  doc = replaceSection(doc, 'text-accuracy', await textAccuracy());
  if (!process.argv.includes('--text-only')) {
    const images = await imageModels(models);
    doc = replaceSection(doc, 'image-models', images.models);
    doc = replaceSection(doc, 'image-scores', images.scores);
  }
  await writeFile(docPath, doc);
  console.log(`wrote ${docPath}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
