/**
 * Measures the n-gram classifier beside the lexicons (docs/moderation.md, "The n-gram classifier"):
 * on the unspent blind set (trainTextModel.ts's UNSPENT, never trained on) recall, precision and
 * false flags of the lexicons alone and of both; on ordinary text kept out of training
 * (ordinaryTextSplit.ts), how many texts each flags, and which ones the model adds.
 *
 *   npx tsx scripts/evaluateTextModel.ts /tmp/ordinary.json [ordinary texts per language, default 1000]
 */
import { MODERATION_POLICIES } from '@mediagen/core';
import { scoreTextDetailed } from '../src/engines/moderation/text/scoreText.js';
import { readCases, UNSPENT } from './labelledText.js';
import { ordinaryTextSplit } from './ordinaryTextSplit.js';

for (const f of UNSPENT) {
  const t = { lex: { tp: 0, fp: 0, fn: 0 }, both: { tp: 0, fp: 0, fn: 0 } };
  const perLang = new Map<string, { lex: number; both: number; n: number }>();
  for (const { lang, text, policy, flag } of readCases(f)) {
    const r = await scoreTextDetailed(text, policy);
    for (const [name, s] of [
      ['lex', r.lexiconScore],
      ['both', r.score],
    ] as const) {
      const hit = s >= 0.5;
      if (hit && flag) t[name].tp++;
      else if (hit) t[name].fp++;
      else if (flag) t[name].fn++;
    }
    const l = perLang.get(lang) ?? { lex: 0, both: 0, n: 0 };
    perLang.set(lang, l);
    if (flag) {
      l.n++;
      if (r.lexiconScore >= 0.5) l.lex++;
      if (r.score >= 0.5) l.both++;
    } else if (r.score >= 0.5)
      console.log(
        `  false flag (${r.lexiconScore >= 0.5 ? 'lexicons' : 'model'}) ${lang} ${policy} ${r.score}: ${text}`,
      );
  }
  for (const [name, x] of Object.entries(t))
    console.log(
      `${f} ${name}: recall ${((100 * x.tp) / (x.tp + x.fn)).toFixed(1)}% precision ${((100 * x.tp) / (x.tp + x.fp)).toFixed(1)}% false flags ${x.fp}`,
    );
  console.log(
    `  per language (lexicons → both): ${[...perLang].map(([lang, l]) => `${lang} ${l.lex}→${l.both}/${l.n}`).join(', ')}`,
  );
}

const per = Number(process.argv[3] ?? 1000);
const { heldOut } = ordinaryTextSplit(process.argv[2] ?? '/tmp/ordinary.json');
let total = 0,
  lexFlags = 0,
  bothFlags = 0;
for (const [lang, texts] of Object.entries(heldOut)) {
  for (const text of texts.slice(0, per)) {
    total++;
    for (const policy of MODERATION_POLICIES) {
      const r = await scoreTextDetailed(text, policy);
      if (r.lexiconScore >= 0.5) lexFlags++;
      if (r.score >= 0.5) bothFlags++;
      if (r.score >= 0.5 && r.lexiconScore < 0.5)
        console.log(`  model flag ${lang} ${policy} p=${r.model.probability}: ${text.slice(0, 200)}`);
    }
  }
}
console.log(
  `ordinary text kept out of training: ${total} texts x 3 policies; flags: lexicons ${lexFlags}, both ${bothFlags}`,
);
