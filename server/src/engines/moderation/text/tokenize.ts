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
 * alef and yeh variants unified), because people often type without them. Korean and Japanese keep
 * their syllables intact (NFD would split Hangul into jamo).
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
      .normalize('NFC');
  }
  if (lang === 'ar')
    s = s
      .replace(/[أإآٱ]/g, 'ا')
      .replace(/ى/g, 'ي')
      .replace(/ـ/g, '');
  if (lang === 'de') s = s.replace(/ß/g, 'ss');
  return s;
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
}

const ARABIC_PROCLITICS = ['وال', 'فال', 'بال', 'كال', 'لل', 'ال', 'و', 'ف', 'ب', 'ل', 'ك', 'س'];

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

/** Character ranges of the sentence that are inside quotation marks. */
export function quotedRanges(sentence: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const [open, close] of QUOTE_PAIRS) {
    let from = 0;
    for (;;) {
      const a = sentence.indexOf(open, from);
      if (a < 0) break;
      const b = sentence.indexOf(close, a + 1);
      if (b < 0) break;
      ranges.push([a, b]);
      from = b + 1;
    }
  }
  return ranges;
}

export function isQuoted(ranges: Array<[number, number]>, start: number, end: number): boolean {
  return ranges.some(([a, b]) => start > a && end <= b);
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
          forms: lang === 'ar' ? arabicForms(part) : [part],
          start,
          end,
          quoted: isQuoted(quotes, start, end),
        });
      }
      offset += part.length + 1;
    }
  }
  return tokens;
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
