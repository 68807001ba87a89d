/**
 * Normalisation, sentence splitting and word tokenisation for the 12 languages, all with Node's
 * built-in Intl.Segmenter (ICU): it splits sentences in every script and finds word boundaries in
 * Chinese and Japanese, which are written without spaces (ICU's dictionary segmentation).
 */
import { isUnspaced, type TextLanguage } from './languages.js';

const QUOTE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ['\u201c', '\u201d'], // “ ”
  ['\u201e', '\u201c'], // „ “ (de)
  ['\u00ab', '\u00bb'], // « » (fr, ru)
  ['\u300c', '\u300d'], // 「 」 (ja, zh)
  ['\u300e', '\u300f'], // 『 』
];

/**
 * Case-folds and normalises so that lexicon terms and text meet in one form: NFKC (full-width
 * letters, compatibility forms), lower case, curly apostrophes made straight, English n't spelt out,
 * and for alphabetic scripts the accents removed ("töten" = "toten", "ё" = "е", Arabic harakat gone,
 * alef and yeh variants unified; œ, æ and ß spelt out), because people often type without them.
 * Korean and Japanese keep their syllables intact (NFD would split Hangul into jamo).
 */
export function normalize(text: string, lang: TextLanguage): string {
  let s = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'");
  if (lang === 'en') s = s.replace(/n't\b/g, ' not').replace(/\bcan not\b/g, 'cannot');
  if (lang !== 'ko' && lang !== 'ja' && lang !== 'zh') {
    s = s
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .normalize('NFC')
      // Ligatures and ß, which NFKC keeps: "sœur" = "soeur", "Scheiße" = "Scheisse".
      .replace(/œ/g, 'oe')
      .replace(/æ/g, 'ae')
      .replace(/ß/g, 'ss');
  }
  if (lang === 'ar')
    s = s
      .replace(/[أإآٱ]/g, 'ا')
      .replace(/ى/g, 'ي')
      .replace(/ـ/g, '');
  return s;
}

/**
 * Quotations that run over several sentences: each sentence that starts inside one gets its opening
 * mark again, so that `He wrote: "I will find you. I will kill you."` quotes both sentences.
 */
export function carryQuotations(sentences: readonly string[]): string[] {
  let open: string | undefined;
  return sentences.map((sentence) => {
    const carried = open ? open + sentence : sentence;
    for (const ch of carried) {
      if (open === undefined) {
        const pair = QUOTE_PAIRS.find(([a]) => a === ch);
        if (pair && ch !== "'") open = pair[0];
      } else {
        const pair = QUOTE_PAIRS.find(([a]) => a === open)!;
        if (ch === pair[1]) open = undefined;
      }
    }
    return carried;
  });
}

/** Sentences of a text, each with its offset in the (normalised) text. */
export function splitSentences(text: string, lang: TextLanguage): Array<{ text: string; start: number }> {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  const out: Array<{ text: string; start: number }> = [];
  for (const seg of segmenter.segment(text)) {
    // Line breaks also end a sentence (chat messages, lists).
    let offset = seg.index;
    for (const line of seg.segment.split(/\n+/)) {
      if (line.trim()) out.push({ text: line, start: offset });
      offset += line.length + 1;
    }
  }
  return out;
}

export interface WordToken {
  /** The normalised word. */
  text: string;
  /** Forms to match against lexicon terms: the word and, for Arabic, the word without its clitics. */
  forms: string[];
  /** Character offsets in the sentence. */
  start: number;
  end: number;
  /** Inside a quotation in the sentence. */
  quoted: boolean;
  /**
   * A clause ends after this word: punctuation (, ; : . ! ? dash, brackets) stands between it and the
   * next word, or it is the sentence's last word. Negation does not reach across a clause end, and a
   * `$` in a term matches there.
   */
  clauseEnd: boolean;
}

/**
 * Prefixes read off an Arabic word (up to two: وبال = و + بال). هال is the spoken demonstrative
 * "this, these" of the Levant and the Gulf (هاد + ال): هالنسوان is "these women", read as نسوان.
 */
const ARABIC_PROCLITICS = ['وال', 'فال', 'بال', 'كال', 'هال', 'لل', 'ال', 'و', 'ف', 'ب', 'ل', 'ك', 'س'];

function arabicForms(word: string): string[] {
  const forms = new Set([word]);
  let frontier = [word];
  for (let depth = 0; depth < 2; depth += 1) {
    const next: string[] = [];
    for (const w of frontier) {
      for (const p of ARABIC_PROCLITICS) {
        if (w.startsWith(p) && w.length - p.length >= 2) {
          const rest = w.slice(p.length);
          if (!forms.has(rest)) {
            forms.add(rest);
            next.push(rest);
          }
        }
      }
    }
    frontier = next;
  }
  return [...forms];
}

/**
 * Single quotation marks: an apostrophe that opens a word after a space (or at the start) and one
 * that closes a word before a space, punctuation or the end: 'te voy a matar', calls her cat 'pussy'.
 * Apostrophes inside words (l'arbre, don't, zo'n) have letters on both sides and are neither (a
 * Hangul syllable after a closing mark is a particle, not the rest of a word).
 */
const SINGLE_OPEN = /(?<=^|[\s([{\u2014\u2013-])'(?=[\p{L}\p{N}])/gu;
// Also before Arabic punctuation (، ؛ ؟) and before a Korean particle written onto the quotation:
// '사장 죽여버린다'는 쪽지 (a note saying 'I'll kill the boss').
const SINGLE_CLOSE =
  /(?<=[\p{L}\p{N}.!?,])'(?=[\s)\]}.,;:!?\u2014\u2013\u060c\u061b\u061f\uac00-\ud7a3-]|$)/gu;

function singleQuoteRanges(sentence: string): Array<[number, number]> {
  if (!sentence.includes("'")) return [];
  const opens = [...sentence.matchAll(SINGLE_OPEN)].map((m) => m.index);
  const closes = [...sentence.matchAll(SINGLE_CLOSE)].map((m) => m.index);
  const ranges: Array<[number, number]> = [];
  let from = -1;
  for (const a of opens) {
    if (a <= from) continue;
    const b = closes.find((c) => c > a + 1);
    if (b === undefined) break;
    ranges.push([a, b]);
    from = b;
  }
  return ranges;
}

/** Character ranges of the sentence that are inside quotation marks. */
export function quotedRanges(sentence: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = singleQuoteRanges(sentence);
  for (const [open, close] of QUOTE_PAIRS) {
    let from = 0;
    for (;;) {
      const a = sentence.indexOf(open, from);
      if (a < 0) break;
      const b = sentence.indexOf(close, a + 1);
      // A quotation still open at the end of the sentence goes on into the next one.
      if (b < 0) {
        ranges.push([a, sentence.length]);
        break;
      }
      ranges.push([a, b]);
      from = b + 1;
    }
  }
  return ranges;
}

export function isQuoted(ranges: Array<[number, number]>, start: number, end: number): boolean {
  return ranges.some(([a, b]) => start > a && end <= b);
}

/**
 * Punctuation that ends a clause between two words (a hyphen only when spaced: "crois-moi" is one
 * clause); Arabic writes its own comma, semicolon and question mark (، ؛ ؟).
 */
const CLAUSE_BREAK =
  /[,;:.!?\u2026()[\]{}\u2013\u2014"\u201c\u201d\u201e\u00ab\u00bb\u060c\u061b\u061f]|\s-\s/;

/**
 * Spanish and Italian write object pronouns onto infinitives, gerunds and first-person-plural
 * imperatives (es molerlos, matarte, pegándole; it ammazzarlo, facciamoli): the verb without them is
 * a second form, so a lexicon's "moler", "ammazzare", "facciamo" reads them all.
 */
const ES_CLITICS =
  /^(.{2,}?(?:ar|er|ir|ando|iendo|yendo|emos|amos))(?:me|te|se|nos|os|le|les)?(?:lo|la|los|las|le|les|me|te|se|nos)$/;
const IT_CLITICS =
  /^(.{2,}?)(?:(ar|er|ir)|(ando|endo|iamo|ate|ete|ite))(?:mi|ti|ci|vi|si|glie|me|te|ce|ve|se)?(?:lo|la|li|le|ne|gli|mi|ti|ci|vi|si)$/;

function encliticForms(word: string, lang: TextLanguage): string[] {
  if (lang === 'es') {
    const m = ES_CLITICS.exec(word);
    return m && m[1] !== word ? [word, m[1]!] : [word];
  }
  if (lang === 'it') {
    const m = IT_CLITICS.exec(word);
    if (!m) return [word];
    return m[2] ? [word, `${m[1]}${m[2]}e`] : [word, `${m[1]}${m[3]}`];
  }
  return [word];
}

/** Word tokens of one normalised sentence (punctuation and spaces dropped). */
export function wordTokens(sentence: string, lang: TextLanguage): WordToken[] {
  const quotes = quotedRanges(sentence);
  const segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
  const tokens: WordToken[] = [];
  for (const seg of segmenter.segment(sentence)) {
    if (!seg.isWordLike) continue;
    // Elisions and contractions: l'immigré -> l + immigré, dell'uomo -> dell + uomo.
    let offset = seg.index;
    for (const part of seg.segment.split("'")) {
      if (part) {
        const start = offset;
        const end = offset + part.length;
        tokens.push({
          text: part,
          forms: lang === 'ar' ? arabicForms(part) : encliticForms(part, lang),
          start,
          end,
          quoted: isQuoted(quotes, start, end),
          clauseEnd: false,
        });
      }
      offset += part.length + 1;
    }
  }
  for (let i = 0; i < tokens.length; i += 1) {
    const next = tokens[i + 1];
    tokens[i]!.clauseEnd = !next || CLAUSE_BREAK.test(sentence.slice(tokens[i]!.end, next.start));
  }
  if (lang === 'de' || lang === 'nl') joinSeparableParticles(tokens, SEPARABLE_PARTICLES[lang]);
  return tokens;
}

/**
 * German and Dutch split separable verbs in a main clause: "ich stech dich ab" is "abstechen", "ik
 * steek je neer" is "neersteken". A particle that ends its clause is joined to each of the words
 * before it in the clause as a further form ("stech" also reads "abstech"), so a lexicon's
 * `abstech*` reads both word orders.
 */
const SEPARABLE_PARTICLES: Record<'de' | 'nl', ReadonlySet<string>> = {
  de: new Set([
    'ab',
    'an',
    'auf',
    'aus',
    'ein',
    'um',
    'weg',
    'zusammen',
    'nieder',
    'kaputt',
    'tot',
    'kalt',
    'fertig',
    'platt',
  ]),
  nl: new Set([
    'af',
    'aan',
    'op',
    'uit',
    'in',
    'om',
    'neer',
    'dood',
    'kapot',
    'weg',
    'koud',
    'overhoop',
    'lek',
  ]),
};
const PARTICLE_REACH = 8;

function joinSeparableParticles(tokens: WordToken[], particles: ReadonlySet<string>): void {
  for (let k = 1; k < tokens.length; k += 1) {
    const particle = tokens[k]!;
    if (!particle.clauseEnd || !particles.has(particle.text)) continue;
    for (let j = k - 1; j >= 0 && j >= k - PARTICLE_REACH && !tokens[j]!.clauseEnd; j -= 1) {
      const verb = tokens[j]!;
      verb.forms = [...verb.forms, particle.text + verb.text];
    }
  }
}

/** Word boundary offsets of a sentence in an unspaced language (zh, ja). */
export function wordBoundaries(sentence: string, lang: TextLanguage): Set<number> {
  const boundaries = new Set<number>([0, sentence.length]);
  if (!isUnspaced(lang)) return boundaries;
  const segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
  for (const seg of segmenter.segment(sentence)) {
    boundaries.add(seg.index);
    boundaries.add(seg.index + seg.segment.length);
  }
  return boundaries;
}

/**
 * The text without its quotations, for a reader that cannot tell a quotation from the writer's own
 * words (the n-gram classifier): "Someone wrote «that teacher deserves a slap», I reported it" reads
 * "Someone wrote , I reported it". Undefined where little would be left (fewer than three words, or
 * six characters of Chinese or Japanese): a text that is mostly one quotation is read whole.
 */
export function withoutQuotations(text: string): string | undefined {
  const ranges = quotedRanges(text);
  if (ranges.length === 0) return undefined;
  let rest = '';
  let at = 0;
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    if (a < at) {
      at = Math.max(at, b + 1);
      continue;
    }
    rest += text.slice(at, a) + ' ';
    at = b + 1;
  }
  rest += text.slice(at);
  const words = rest.match(/\p{L}+/gu) ?? [];
  const unspaced = (rest.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  return words.length >= 3 || unspaced >= 6 ? rest : undefined;
}
