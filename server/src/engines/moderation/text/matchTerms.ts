/**
 * Finds lexicon terms in one sentence: word sequences with prefix/suffix wildcards in spaced
 * languages, substrings checked against word boundaries in Chinese and Japanese.
 */
import { isUnspaced, type TextLanguage } from './languages.js';
import { isQuoted, normalize, quotedRanges, wordBoundaries, wordTokens, type WordToken } from './tokenize.js';

/**
 * Words a prefix or suffix wildcard must not read (a lexicon's `wildcardExceptions`): fr `viole*`
 * (rape) is not "violette" or "violence", it `scann*` (slit) not "scanner".
 */
export interface WildcardExceptions {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

export function compileWildcardExceptions(
  list: readonly string[] | undefined,
  lang: TextLanguage,
): WildcardExceptions | undefined {
  if (!list || list.length === 0) return undefined;
  const norm = list.map((w) => normalize(w, lang).trim());
  return {
    words: new Set(norm.filter((w) => !w.endsWith('*'))),
    prefixes: norm.filter((w) => w.endsWith('*')).map((w) => w.slice(0, -1)),
  };
}

function excepted(form: string, except: WildcardExceptions | undefined): boolean {
  return !!except && (except.words.has(form) || except.prefixes.some((p) => form.startsWith(p)));
}

type WordPattern =
  | { kind: 'exact'; text: string }
  | { kind: 'prefix' | 'suffix'; text: string; except?: WildcardExceptions }
  /** `{name}`: any term of the lexicon's word class `name` (a term may be several words). */
  | { kind: 'class'; name: string; terms: readonly CompiledTerm[] }
  /** `~N`: 0 to N words of any kind (zh/ja: 0 to N characters). */
  | { kind: 'gap'; max: number }
  /**
   * `!word` or `!{name}` (spaced languages): the match holds only if what follows is NOT that word or
   * a term of that class; it takes no word itself. "ich bringe dich um !{clock}" reads the threat but
   * not "ich bringe dich um acht nach Hause".
   */
  | { kind: 'not'; terms: readonly CompiledTerm[] }
  /**
   * `$` (spaced languages): a clause boundary, a comma, full stop, dash or either end of the sentence;
   * it takes no word. "you won't make it to friday $" reads the threat but not "... to Friday's
   * meeting"; "$ der ~3 erschossen hat" reads a relative clause that starts after a comma.
   */
  | { kind: 'end' };

export interface CompiledTerm {
  source: string;
  words: WordPattern[];
  /** For unspaced languages: the normalised substring (terms without classes or gaps). */
  substring: string;
  /** For unspaced languages: the term as a regular expression (terms with classes or gaps). */
  regex?: RegExp;
}

export interface TermMatch {
  term: string;
  /** Token indices (spaced) or character offsets (zh, ja), end exclusive. */
  start: number;
  end: number;
  quoted: boolean;
  /** Ranges inside the match that `~N` gaps swallowed (a negation there negates the match). */
  gaps?: Array<[number, number]>;
}

/** Compiled word classes a term may refer to as `{name}`. */
export type TermClasses = Readonly<Record<string, readonly CompiledTerm[]>>;

const SLOT = /!\{([a-z0-9_]+)\}|!([^\s{}~!$]+)|\{([a-z0-9_]+)\}|~(\d+)/g;

function classTerms(classes: TermClasses, name: string, source: string): readonly CompiledTerm[] {
  const terms = classes[name];
  if (!terms) throw new Error(`lexicon term "${source}" names an unknown word class {${name}}`);
  return terms;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The end of a sentence or clause (punctuation, a space, the end of the text): a trailing `$` in a
 * zh/ja term. "ゲイは気持ち悪い$" reads a predicate ending the clause, not "気持ち悪い虫" inside one.
 */
const CLAUSE_END = '(?=[\\p{P}\\p{S}\\s]|$)';

/** `{num}` in zh/ja: a number, in ASCII or full-width digits, with a decimal part. */
const UNSPACED_NUM = '[0-9\uFF10-\uFF19]+(?:[.,][0-9\uFF10-\uFF19]+)?';

function alternation(classes: TermClasses, name: string, source: string): string {
  const alternatives = classTerms(classes, name, source)
    .map((t) => t.substring.replace(/\s+/g, ''))
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegex);
  return `(?:${alternatives.join('|')})`;
}

/**
 * zh/ja: `{class}` becomes an alternation of the class's substrings (`{num}`, unless the lexicon
 * defines it, a number), `!{class}` / `!word` "not followed by" (a negative lookahead), `~N` up to N
 * characters (a capture group, so a negation the gap swallowed is found, as in spaced languages), a
 * trailing `$` the end of the clause.
 */
function unspacedRegex(norm: string, classes: TermClasses, source: string): RegExp | undefined {
  if (!/\{[a-z0-9_]+\}|~\d|\$$|!\S/.test(norm)) return undefined;
  const anchored = norm.endsWith('$');
  if (anchored) norm = norm.slice(0, -1);
  let pattern = '';
  let last = 0;
  for (const m of norm.matchAll(SLOT)) {
    pattern += escapeRegex(norm.slice(last, m.index).replace(/\s+/g, ''));
    if (m[1]) pattern += `(?!${alternation(classes, m[1], source)})`;
    else if (m[2]) pattern += `(?!${escapeRegex(m[2])})`;
    else if (m[3] === 'num' && !classes.num) pattern += UNSPACED_NUM;
    else if (m[3]) pattern += alternation(classes, m[3], source);
    else pattern += `(.{0,${m[4]}})`;
    last = m.index + m[0].length;
  }
  pattern += escapeRegex(norm.slice(last).replace(/\s+/g, ''));
  if (anchored) pattern += CLAUSE_END;
  return new RegExp(pattern, 'gud');
}

/** `{num}` in spaced languages, unless the lexicon defines its own: a word that starts with a digit. */
const SPACED_NUM: readonly CompiledTerm[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => ({
  source: `${d}*`,
  words: [{ kind: 'prefix', text: d }],
  substring: d,
}));

/**
 * Compiles lexicon terms. Besides plain words (`word`, `word*` prefix, `*word` suffix) a term may hold
 * `{name}`, any term of word class `name` from `classes`, and `~N`, a gap of up to N words, so one
 * term states a construction: `{harm} ~2 {possessive} {body}` reads "crack his skull", "smash both
 * her knees". `!word` / `!{name}` requires that the next word is not that word or class term, and
 * `$` (spaced languages) a clause boundary (a comma, a dash, either end of the sentence).
 */
export function compileTerms(
  terms: readonly string[],
  lang: TextLanguage,
  classes: TermClasses = {},
  except?: WildcardExceptions,
): CompiledTerm[] {
  return terms.map((source) => {
    const norm = normalize(source, lang).trim();
    // A brace outside a `{name}` slot (`{a|b}`, `{Name}`, `{name`) would be matched as literal text, so
    // the term would silently never match.
    if (/[{}]/.test(norm.replace(/\{[a-z0-9_]+\}/g, ''))) {
      throw new Error(`lexicon term "${source}" has a brace outside a {name} word class slot`);
    }
    // zh/ja terms are matched as regular expressions; their words are not used.
    const words = (isUnspaced(lang) ? '' : norm)
      .replace(/'/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .map((w): WordPattern => {
        if (w === '$' && !isUnspaced(lang)) return { kind: 'end' };
        if (w.length > 1 && w.startsWith('!')) {
          const inner = /^!\{([a-z0-9_]+)\}$/.exec(w);
          const terms = inner
            ? classTerms(classes, inner[1]!, source)
            : compileTerms([w.slice(1)], lang, {}, except);
          return { kind: 'not', terms };
        }
        const slot = /^\{([a-z0-9_]+)\}$/.exec(w);
        if (slot?.[1] === 'num' && !classes.num) return { kind: 'class', name: 'num', terms: SPACED_NUM };
        if (slot) return { kind: 'class', name: slot[1]!, terms: classTerms(classes, slot[1]!, source) };
        const gap = /^~(\d+)$/.exec(w);
        if (gap) return { kind: 'gap', max: Number(gap[1]) };
        if (w.length > 1 && w.endsWith('*')) return { kind: 'prefix', text: w.slice(0, -1), except };
        if (w.length > 1 && w.startsWith('*')) return { kind: 'suffix', text: w.slice(1), except };
        return { kind: 'exact', text: w };
      });
    const compiled: CompiledTerm = { source, words, substring: norm.replace(/\*/g, '') };
    if (isUnspaced(lang)) {
      const regex = unspacedRegex(norm.replace(/\*/g, ''), classes, source);
      if (regex) compiled.regex = regex;
    }
    return compiled;
  });
}

function wordMatches(
  pattern: Extract<WordPattern, { kind: 'exact' | 'prefix' | 'suffix' }>,
  token: WordToken,
): boolean {
  if (pattern.kind === 'exact') return token.forms.includes(pattern.text);
  const reads = token.forms.some((form) =>
    pattern.kind === 'prefix' ? form.startsWith(pattern.text) : form.endsWith(pattern.text),
  );
  // Every form of the word: ar البلوطي (oaken) is not لوطي* once its ب is read as a proclitic.
  return reads && !token.forms.some((form) => excepted(form, pattern.except));
}

/** Where a word class's terms end when they start at a token, with the gaps they swallowed. */
type ClassHits = Array<{ end: number; gaps: Array<[number, number]> }>;
const NO_HITS: ClassHits = [];

/**
 * Class matches are memoised per sentence (its token array): many terms of a list start with the same
 * class (`{group} are ~2 {crime}`, `{group} control ~2 {power}`, ...), and each would otherwise try
 * every term of the class again at the same token.
 */
const classCache = new WeakMap<readonly WordToken[], Map<readonly CompiledTerm[], Map<number, ClassHits>>>();

function classHits(terms: readonly CompiledTerm[], tokens: readonly WordToken[], i: number): ClassHits {
  let byClass = classCache.get(tokens);
  if (!byClass) {
    byClass = new Map();
    classCache.set(tokens, byClass);
  }
  let byToken = byClass.get(terms);
  if (!byToken) {
    byToken = new Map();
    byClass.set(terms, byToken);
  }
  let hits = byToken.get(i);
  if (!hits) {
    let found: ClassHits | undefined;
    for (const term of terms) {
      const inner: Array<[number, number]> = [];
      const end = matchWords(term.words, 0, tokens, i, inner);
      if (end > i) (found ??= []).push({ end, gaps: inner });
    }
    hits = found ?? NO_HITS;
    byToken.set(i, hits);
  }
  return hits;
}

/**
 * Matches `words[k..]` at token `i`; answers the end token (exclusive) or -1. Gaps take as few words
 * as they can; the token ranges they swallowed are pushed on `gaps`.
 */
function matchWords(
  words: readonly WordPattern[],
  k: number,
  tokens: readonly WordToken[],
  i: number,
  gaps: Array<[number, number]>,
): number {
  if (k === words.length) return i;
  const w = words[k]!;
  if (w.kind === 'gap') {
    for (let g = 0; g <= w.max && i + g <= tokens.length; g += 1) {
      const end = matchWords(words, k + 1, tokens, i + g, gaps);
      if (end >= 0) {
        if (g > 0) gaps.push([i, i + g]);
        return end;
      }
    }
    return -1;
  }
  if (w.kind === 'end') {
    const boundary = i === 0 || i === tokens.length || tokens[i - 1]!.clauseEnd;
    return boundary ? matchWords(words, k + 1, tokens, i, gaps) : -1;
  }
  if (w.kind === 'not') {
    const followed = classHits(w.terms, tokens, i).length > 0;
    return followed ? -1 : matchWords(words, k + 1, tokens, i, gaps);
  }
  if (w.kind === 'class') {
    for (const hit of classHits(w.terms, tokens, i)) {
      const end = matchWords(words, k + 1, tokens, hit.end, gaps);
      if (end >= 0) {
        gaps.push(...hit.gaps);
        return end;
      }
    }
    return -1;
  }
  if (i >= tokens.length || !wordMatches(w, tokens[i]!)) return -1;
  return matchWords(words, k + 1, tokens, i + 1, gaps);
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
  /** Terms starting with a one-character prefix (`5*`, a number): keyed by that character. */
  initial: Map<string, CompiledTerm[]>;
  /** Terms starting with a suffix pattern or a gap: checked at every token. */
  other: CompiledTerm[];
}

const PREFIX_KEY = 2;
const indexes = new WeakMap<readonly CompiledTerm[], TermIndex>();

/**
 * The index keys a term can start with: its first word, or for a `{class}` the first words of the
 * class's terms. `undefined`: the term can start anywhere (suffix, short prefix, gap), check it always.
 */
function startKeys(words: readonly WordPattern[], depth = 0): WordPattern[] | undefined {
  const first = words[0];
  if (!first || depth > 3) return undefined;
  if (first.kind === 'exact') return [first];
  if (first.kind === 'prefix') return [first];
  if (first.kind !== 'class') return undefined;
  const keys: WordPattern[] = [];
  for (const t of first.terms) {
    const k = startKeys(t.words, depth + 1);
    if (!k) return undefined;
    keys.push(...k);
  }
  return keys;
}

function termIndex(terms: readonly CompiledTerm[]): TermIndex {
  let index = indexes.get(terms);
  if (!index) {
    const built: TermIndex = { exact: new Map(), prefix: new Map(), initial: new Map(), other: [] };
    const push = (map: Map<string, CompiledTerm[]>, key: string, term: CompiledTerm) => {
      const list = map.get(key);
      if (!list) map.set(key, [term]);
      else if (!list.includes(term)) list.push(term);
    };
    for (const term of terms) {
      const keys = startKeys(term.words);
      if (!keys) {
        built.other.push(term);
        continue;
      }
      for (const key of keys) {
        if (key.kind === 'exact') push(built.exact, key.text, term);
        else if (key.kind === 'prefix' && key.text.length >= PREFIX_KEY)
          push(built.prefix, key.text.slice(0, PREFIX_KEY), term);
        else if (key.kind === 'prefix') push(built.initial, key.text, term);
      }
    }
    index = built;
    indexes.set(terms, index);
  }
  return index;
}

/** A katakana letter or the long-vowel mark: the letters of a loanword written in katakana. */
const KATAKANA = /[\p{Script=Katakana}\u30FC]/u;

/** A Latin letter or a digit: a word written in Latin letters inside Chinese or Japanese text. */
const LATIN = /[a-z0-9]/;

/**
 * A term that starts with katakana must start a katakana word: "フェラ" is not read in カフェラテ
 * (caffe latte) nor "チョン" in クエスチョン or ランチョン, while "ポルノサイト" still holds "ポルノ". A
 * katakana term of two letters must be a whole katakana word ("グロ" is not read in グローバル), and a
 * term in Latin letters a whole Latin word ("xxx" is not read in aic7xxx, "sm" not in jssmag).
 */
function midWord(text: string, at: number, needle: string): boolean {
  const end = at + needle.length;
  const first = needle.charAt(0);
  const last = needle.charAt(needle.length - 1);
  if (KATAKANA.test(first) && at > 0 && KATAKANA.test(text.charAt(at - 1))) return true;
  if (needle.length <= 2 && KATAKANA.test(last) && KATAKANA.test(text.charAt(end))) return true;
  if (LATIN.test(first) && at > 0 && LATIN.test(text.charAt(at - 1))) return true;
  return LATIN.test(last) && LATIN.test(text.charAt(end));
}

function findUnspaced(sentence: PreparedSentence, terms: readonly CompiledTerm[]): TermMatch[] {
  const matches: TermMatch[] = [];
  for (const term of terms) {
    if (term.regex) {
      term.regex.lastIndex = 0;
      for (const m of sentence.text.matchAll(term.regex)) {
        if (!m[0] || midWord(sentence.text, m.index, m[0])) continue;
        const end = m.index + m[0].length;
        const match: TermMatch = {
          term: term.source,
          start: m.index,
          end,
          quoted: isQuoted(sentence.quotes, m.index, end),
        };
        // The `~N` gaps are the expression's only capture groups.
        const gaps = (m.indices ?? [])
          .slice(1)
          .filter((g): g is [number, number] => g !== undefined && g[1] > g[0]);
        if (gaps.length > 0) match.gaps = gaps;
        matches.push(match);
      }
      continue;
    }
    const needle = term.substring.replace(/\s+/g, '');
    if (!needle) continue;
    let from = 0;
    for (;;) {
      const at = sentence.text.indexOf(needle, from);
      if (at < 0) break;
      const end = at + needle.length;
      const whole = sentence.boundaries.has(at) && sentence.boundaries.has(end);
      if ((needle.length > 1 || whole) && !midWord(sentence.text, at, needle)) {
        matches.push({ term: term.source, start: at, end, quoted: isQuoted(sentence.quotes, at, end) });
      }
      from = at + 1;
    }
  }
  return matches;
}

export function findTerms(sentence: PreparedSentence, terms: readonly CompiledTerm[]): TermMatch[] {
  if (isUnspaced(sentence.lang)) return findUnspaced(sentence, terms);
  const matches: TermMatch[] = [];
  const { tokens } = sentence;
  const index = termIndex(terms);
  for (let i = 0; i < tokens.length; i += 1) {
    // The terms that can start at this token; a Set only when several lists meet (dedupe).
    const lists: CompiledTerm[][] = [];
    if (index.other.length > 0) lists.push(index.other);
    for (const form of tokens[i]!.forms) {
      const exact = index.exact.get(form);
      if (exact) lists.push(exact);
      const prefix = index.prefix.get(form.slice(0, PREFIX_KEY));
      if (prefix) lists.push(prefix);
      const initial = index.initial.get(form.slice(0, 1));
      if (initial) lists.push(initial);
    }
    if (lists.length === 0) continue;
    const candidates: Iterable<CompiledTerm> = lists.length === 1 ? lists[0]! : new Set(lists.flat());
    for (const term of candidates) {
      const gaps: Array<[number, number]> = [];
      const end = matchWords(term.words, 0, tokens, i, gaps);
      if (end <= i) continue;
      // Quoted when it starts or ends inside a quotation: "de « pédé »" quotes the slur, not "de".
      const quoted = tokens[i]!.quoted || tokens[end - 1]!.quoted;
      const match: TermMatch = { term: term.source, start: i, end, quoted };
      if (gaps.length > 0) match.gaps = gaps;
      matches.push(match);
    }
  }
  return matches;
}

/** Two matches share a word (or a character in zh/ja). */
export function overlap(a: TermMatch, b: TermMatch): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Keeps the longest of overlapping matches ("kill them all" wins over "kill them"), in text order. */
export function longestMatches(matches: readonly TermMatch[]): TermMatch[] {
  const kept: TermMatch[] = [];
  // Ties go to the match that needed fewer gaps: it is the more specific construction.
  const byLength = [...matches].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      (a.gaps?.length ?? 0) - (b.gaps?.length ?? 0) ||
      a.start - b.start,
  );
  for (const m of byLength) {
    if (!kept.some((k) => overlap(m, k))) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * The longest matches (longestMatches), except where the longest is negated and shorter matches over
 * the same words are not: then those. A negation inside a long term's gap ("X non servono a niente,
 * sono troppo stupide": the long predicate spans the "non") must not hide a shorter term outside it.
 * `negated` is asked only about matches that overlapped another.
 */
export function longestUnnegated(
  matches: readonly TermMatch[],
  negated: (m: TermMatch) => boolean,
): TermMatch[] {
  const kept = longestMatches(matches);
  if (kept.length === matches.length) return kept;
  return kept.flatMap((k) => {
    const others = kept.filter((o) => o !== k);
    const inside = matches.filter((m) => m !== k && overlap(m, k) && !others.some((o) => overlap(m, o)));
    if (inside.length === 0 || !negated(k)) return [k];
    const clean = longestMatches(inside.filter((m) => !negated(m)));
    return clean.length > 0 ? clean : [k];
  });
}
