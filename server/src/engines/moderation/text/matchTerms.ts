/**
 * Finds lexicon terms in one sentence: word sequences with prefix/suffix wildcards in spaced
 * languages, substrings checked against word boundaries in Chinese and Japanese.
 */
import { isUnspaced, type TextLanguage } from './languages.js';
import { isQuoted, normalize, quotedRanges, wordBoundaries, wordTokens, type WordToken } from './tokenize.js';

type WordPattern = { kind: 'exact' | 'prefix' | 'suffix'; text: string };

export interface CompiledTerm {
  source: string;
  words: WordPattern[];
  /** For unspaced languages: the normalised substring. */
  substring: string;
}

export interface TermMatch {
  term: string;
  /** Token indices (spaced) or character offsets (zh, ja), end exclusive. */
  start: number;
  end: number;
  quoted: boolean;
}

export function compileTerms(terms: readonly string[], lang: TextLanguage): CompiledTerm[] {
  return terms.map((source) => {
    const norm = normalize(source, lang).trim();
    const words = norm
      .replace(/'/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .map((w): WordPattern => {
        if (w.length > 1 && w.endsWith('*')) return { kind: 'prefix', text: w.slice(0, -1) };
        if (w.length > 1 && w.startsWith('*')) return { kind: 'suffix', text: w.slice(1) };
        return { kind: 'exact', text: w };
      });
    return { source, words, substring: norm.replace(/\*/g, '') };
  });
}

function wordMatches(pattern: WordPattern, token: WordToken): boolean {
  return token.forms.some((form) =>
    pattern.kind === 'exact'
      ? form === pattern.text
      : pattern.kind === 'prefix'
        ? form.startsWith(pattern.text)
        : form.endsWith(pattern.text),
  );
}

/** A normalised sentence ready for matching. */
export interface PreparedSentence {
  lang: TextLanguage;
  text: string;
  tokens: WordToken[];
  boundaries: Set<number>;
  quotes: Array<[number, number]>;
}

export function prepareSentence(normalizedSentence: string, lang: TextLanguage): PreparedSentence {
  return {
    lang,
    text: normalizedSentence,
    tokens: isUnspaced(lang) ? [] : wordTokens(normalizedSentence, lang),
    boundaries: wordBoundaries(normalizedSentence, lang),
    quotes: quotedRanges(normalizedSentence),
  };
}

/** Terms bucketed by their first word, so each token is checked only against terms that can start there. */
interface TermIndex {
  exact: Map<string, CompiledTerm[]>;
  prefix: Map<string, CompiledTerm[]>;
  /** Terms starting with a suffix pattern or a very short prefix: checked at every token. */
  other: CompiledTerm[];
}

const PREFIX_KEY = 2;
const indexes = new WeakMap<readonly CompiledTerm[], TermIndex>();

function termIndex(terms: readonly CompiledTerm[]): TermIndex {
  let index = indexes.get(terms);
  if (!index) {
    const built: TermIndex = { exact: new Map(), prefix: new Map(), other: [] };
    const push = (map: Map<string, CompiledTerm[]>, key: string, term: CompiledTerm) => {
      const list = map.get(key);
      if (list) list.push(term);
      else map.set(key, [term]);
    };
    for (const term of terms) {
      const first = term.words[0];
      if (!first) continue;
      if (first.kind === 'exact') push(built.exact, first.text, term);
      else if (first.kind === 'prefix' && first.text.length >= PREFIX_KEY) {
        push(built.prefix, first.text.slice(0, PREFIX_KEY), term);
      } else built.other.push(term);
    }
    index = built;
    indexes.set(terms, index);
  }
  return index;
}

export function findTerms(sentence: PreparedSentence, terms: readonly CompiledTerm[]): TermMatch[] {
  const matches: TermMatch[] = [];
  if (isUnspaced(sentence.lang)) {
    for (const term of terms) {
      const needle = term.substring.replace(/\s+/g, '');
      if (!needle) continue;
      let from = 0;
      for (;;) {
        const at = sentence.text.indexOf(needle, from);
        if (at < 0) break;
        const end = at + needle.length;
        const whole = sentence.boundaries.has(at) && sentence.boundaries.has(end);
        if (needle.length > 1 || whole) {
          matches.push({ term: term.source, start: at, end, quoted: isQuoted(sentence.quotes, at, end) });
        }
        from = at + 1;
      }
    }
    return matches;
  }
  const { tokens } = sentence;
  const index = termIndex(terms);
  for (let i = 0; i < tokens.length; i += 1) {
    const candidates = new Set<CompiledTerm>(index.other);
    for (const form of tokens[i]!.forms) {
      for (const t of index.exact.get(form) ?? []) candidates.add(t);
      for (const t of index.prefix.get(form.slice(0, PREFIX_KEY)) ?? []) candidates.add(t);
    }
    for (const term of candidates) {
      const n = term.words.length;
      if (n === 0 || i + n > tokens.length) continue;
      let ok = true;
      for (let k = 0; k < n && ok; k += 1) ok = wordMatches(term.words[k]!, tokens[i + k]!);
      if (ok) matches.push({ term: term.source, start: i, end: i + n, quoted: tokens[i]!.quoted });
    }
  }
  return matches;
}

/** Keeps the longest of overlapping matches ("kill them all" wins over "kill them"), in text order. */
export function longestMatches(matches: readonly TermMatch[]): TermMatch[] {
  const kept: TermMatch[] = [];
  const byLength = [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const m of byLength) {
    if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}
