/**
 * Ordinary text for training the n-gram classifier (trainTextModel.ts): paragraphs of Debian's
 * translated manual pages, the fortune cookies of the fortunes packages and WordNet's example
 * sentences, written to a JSON file { lang: [text, …] }. None of it is committed: it is read from
 * the Debian packages installed on the machine that trains:
 *
 *   apt-get install manpages-de manpages-es manpages-fr manpages-it manpages-ja manpages-nl \
 *     manpages-pt-br manpages-ru manpages-zh fortunes fortunes-de fortunes-es fortunes-it \
 *     fortunes-ru fortunes-zh wordnet-base
 *   npx tsx scripts/extractOrdinaryText.ts /tmp/ordinary.json
 *
 * English fortune files whose jokes are about sex, ethnic groups or the sexes (off/, ethnic,
 * men-women, love, drugs) are left out: they are not the ordinary text the classifier must let pass.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const out: Record<string, string[]> = {};
const push = (lang: string, text: string) => {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length > 20) (out[lang] ??= []).push(t);
};

/** roff escapes (\fB, \(em, \-, …) out of a manual page's text line. */
function cleanRoff(line: string): string {
  return line
    .replace(/\\f[BIRP]|\\f\(..|\\\*\(..|\\\*.|\\\(..|\\[&|^%]|\\e/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\s[-+]?\d/g, '')
    .replace(/\\ /g, ' ')
    .replace(/\\/g, '')
    .trim();
}

function manPages(dir: string, lang: string): void {
  if (!existsSync(dir)) return;
  for (const section of readdirSync(dir).filter((d) => /^man\d/.test(d))) {
    for (const file of readdirSync(join(dir, section)).filter((f) => f.endsWith('.gz'))) {
      let raw: string;
      try {
        raw = gunzipSync(readFileSync(join(dir, section, file))).toString('utf8');
      } catch {
        continue;
      }
      let para: string[] = [];
      for (const line of raw.split('\n')) {
        if (line.startsWith('.') || line.startsWith("'")) {
          if (para.length) push(lang, para.join(' '));
          para = [];
          continue;
        }
        const c = cleanRoff(line);
        if (c) para.push(c);
      }
      if (para.length) push(lang, para.join(' '));
    }
  }
}

const FORTUNES = '/usr/share/games/fortunes';
const LEFT_OUT = new Set(['off', 'ethnic', 'men-women', 'love', 'drugs']);

function fortunes(path: string, lang: string): void {
  if (!existsSync(path)) return;
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => !f.endsWith('.dat') && !LEFT_OUT.has(f))
        .map((f) => join(path, f))
        .filter((f) => statSync(f).isFile())
    : [path];
  for (const f of files) for (const chunk of readFileSync(f, 'utf8').split('\n%\n')) push(lang, chunk);
}

const MAN: Record<string, string> = {
  de: 'de',
  es: 'es',
  fr: 'fr',
  it: 'it',
  nl: 'nl',
  pt_BR: 'pt',
  ru: 'ru',
  ja: 'ja',
  zh_CN: 'zh',
  ko: 'ko',
};
for (const [dir, lang] of Object.entries(MAN)) manPages(`/usr/share/man/${dir}`, lang);
manPages('/usr/share/man', 'en');
for (const lang of ['de', 'es', 'it', 'ru']) fortunes(join(FORTUNES, lang), lang);
fortunes(join(FORTUNES, 'chinese.u8'), 'zh');
if (existsSync(FORTUNES))
  for (const f of readdirSync(FORTUNES).filter((f) => f.endsWith('.u8') && f !== 'chinese.u8'))
    if (!LEFT_OUT.has(f.slice(0, -3))) fortunes(join(FORTUNES, f), 'en');
// WordNet: the quoted examples in the glosses ("… | a gloss; \"an example\"").
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const file = `/usr/share/wordnet/data.${pos}`;
  if (!existsSync(file)) continue;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const gloss = line.split(' | ')[1];
    for (const m of gloss?.matchAll(/"([^"]{15,})"/g) ?? []) push('en', m[1]!);
  }
}
for (const [lang, texts] of Object.entries(out)) out[lang] = [...new Set(texts)];
writeFileSync(process.argv[2] ?? '/tmp/ordinary.json', JSON.stringify(out));
console.log(
  Object.entries(out)
    .map(([l, t]) => `${l} ${t.length}`)
    .join(', '),
);
