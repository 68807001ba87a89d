/**
 * The built-in text classifier: per-language lexicons and co-occurrence rules, read natively in the
 * spec's 12 languages (no translation), with negation, quotation and news/reported-speech damping.
 *
 * Evidence weights (each is the score one piece of evidence gives alone, before damping):
 *
 * | policy   | evidence                                                        | weight |
 * |----------|-----------------------------------------------------------------|--------|
 * | nsfw     | explicit sexual term                                            | 0.90   |
 * | nsfw     | sexual term (two in a sentence: 0.70)                           | 0.45   |
 * | nsfw     | other entry of the naughty-words list (profanity; three: 0.58)  | 0.25   |
 * | nsfw     | weak commercial-sex cue (discreet, per half hour; three: 0.58)  | 0.25   |
 * | nsfw     | plain ad cue (price per hour, new in town, text only)           | 0.10   |
 * | violence | threat, incitement or graphic violence phrase                   | 0.90   |
 * | violence | violent verb with first-person intent or a call to act          | 0.85   |
 * |          | (not a noun, a past form or a verb in a relative clause)        |        |
 * | violence | depiction or graphic description ("a photo of a man being      | 0.70   |
 * |          | strangled", "stabbed to death, blood everywhere")               |        |
 * | violence | violent verb alone (news: "two people were killed")             | 0.20   |
 * | violence | veiled threat cue (watch your back; two in a sentence: 0.70)    | 0.45   |
 * | violence | weak threat cue (or else, think carefully; with a veiled: 0.59) | 0.25   |
 * | hate     | slur                                                            | 0.85   |
 * | hate     | protected group + dehumanising word in one sentence             | 0.90   |
 * | hate     | protected group + call to expel / eliminate                     | 0.85   |
 * | hate     | protected group + violent verb with intent                      | 0.90   |
 * | hate     | group + copula + criminal/vermin predicate ("X are thieves")    | 0.90   |
 * | hate     | dehumanising word alone ("rats in the cellar")                  | 0.20   |
 *
 * Damping (multiplied): negated (a negation word within 3 words before, or after in languages that
 * negate after the verb, in the same clause and before a result clause such as nl "zodat") x0.15;
 * inside quotation marks x0.35; the sentence reports or condemns (said, police said, court, according
 * to, condemned) x0.35; violence in or next to a sentence about play (a workout, a video game) x0.35. A slur is damped by a negation only where the sentence
 * talks about the word ("we don't say X"), not in "don't rent to X". A refutation negates the claim
 * before it, in the same sentence or opening the next one ("That is a myth."); a negation inside a
 * suggesting question ("why don't we just ...") negates nothing.
 * A sentence's score is the noisy-OR of its evidence, 1 - prod(1 - w); veiled and weak threat cues,
 * and a commercial-sex cue with a sexual word or another cue, also count together over two
 * neighbouring sentences (PAIRED); the text's raw score is its highest sentence; the answer is
 * 0.01 + 0.98 * raw (so clean text scores 0.01, like an ordinary
 * photo), rounded to 4 decimals. With the default threshold 0.5, one strong piece of evidence flags a
 * text, a weak one never does.
 *
 * scoreTextDetailed then asks the n-gram classifier (ngramModel.ts), reading the text without its
 * quotations, which can raise the score from its threshold, except where the lexicons read their
 * evidence as negated, quoted, reported or play. Weak evidence of both together also flags (JOINT): a
 * plain lexicon word of the policy (not a dehumanising word alone) and a model probability of 0.7.
 */
import { createRequire } from 'node:module';
import type { ModerationPolicyName } from '../../types.js';
import { identifyLanguages } from './languageId.js';
import { isUnspaced, type TextLanguage } from './languages.js';
import { LEXICONS } from './lexicons/index.js';
import { CLINICAL } from './lexicons/clinical.js';
import { LATIN_PLAY } from './lexicons/play.js';
import type { Lexicon } from './lexicons/types.js';
import { builtInNgramModel, judge, type NgramVerdict } from './ngramModel.js';
import {
  compileTerms,
  compileWildcardExceptions,
  longestMatches,
  longestUnnegated,
  overlap,
  findTerms,
  prepareSentence,
  type CompiledTerm,
  type PreparedSentence,
  type TermMatch,
} from './matchTerms.js';
import { carryQuotations, normalize, splitSentences, withoutQuotations } from './tokenize.js';

export const TEXT_WEIGHTS = {
  nsfwExplicit: 0.9,
  nsfwSexual: 0.45,
  nsfwListed: 0.25,
  nsfwCue: 0.25,
  nsfwAdCue: 0.1,
  violenceIncitement: 0.9,
  violenceThreat: 0.85,
  violenceVerb: 0.2,
  violenceGraphic: 0.7,
  violenceVeiled: 0.45,
  violenceCue: 0.25,
  hateSlur: 0.85,
  hateDehumanizingGroup: 0.9,
  hateExclusionGroup: 0.85,
  hateViolenceGroup: 0.9,
  hateGroupPredicate: 0.9,
  hateDehumanizing: 0.2,
} as const;

export const TEXT_DAMPING = { negated: 0.15, quoted: 0.35, reporting: 0.35, play: 0.35 } as const;

const NEGATION_WINDOW_WORDS = 3;
const NEGATION_WINDOW_CHARS = 6;
/**
 * How far from a frame of sex education or sexual medicine a clinical word is excused (lexicons/
 * clinical.ts): "Sexualkunde in der Schule: Masturbation ist normal" (3 words), not "my
 * gynecologist is hot, I want her to finger me until I orgasm" (10).
 */
const CLINICAL_WINDOW_WORDS = 6;
/** The same in characters, for zh and ja. */
const CLINICAL_WINDOW_CHARS = 12;
/** How far after a match a refutation ("это миф", lexicons' negation.refute) still denies it. */
const REFUTE_WINDOW_WORDS = 8;
/** The same in characters, for zh and ja ("河南人都是骗子，这是地域歧视"). */
const REFUTE_WINDOW_CHARS = 16;
/**
 * A sentence that opens with a refutation ("That is a myth.", "Das ist ein Mythos.") denies the hate
 * claims of the sentence before it: the refutation must start within this many words of its start.
 */
const REFUTE_OPENING_WORDS = 2;

const require = createRequire(import.meta.url);

interface CompiledLexicon {
  lex: Lexicon;
  negBefore: CompiledTerm[];
  negAfter: CompiledTerm[];
  negCloseAfter: CompiledTerm[];
  negInto: Set<string>;
  negRefute: CompiledTerm[];
  /** negation.rhetorical and negation.local: phrases whose negation words negate no other match. */
  negExempt: CompiledTerm[];
  reporting: CompiledTerm[];
  notReporting: CompiledTerm[];
  nsfwExplicit: CompiledTerm[];
  nsfwSexual: CompiledTerm[];
  nsfwListed: CompiledTerm[];
  nsfwCues: CompiledTerm[];
  nsfwAdCues: CompiledTerm[];
  incitement: CompiledTerm[];
  verbs: CompiledTerm[];
  intent: CompiledTerm[];
  nounAfter: ReadonlySet<string>;
  nouns: CompiledTerm[];
  finite: ReadonlySet<string>;
  passive: ReadonlySet<string>;
  participles: ReadonlySet<string>;
  perfect: ReadonlySet<string>;
  perfectAfter: ReadonlySet<string>;
  relative: ReadonlySet<string>;
  relativeAfterComma: ReadonlySet<string>;
  coordinators: ReadonlySet<string>;
  veiled: CompiledTerm[];
  graphic: CompiledTerm[];
  threatCues: CompiledTerm[];
  play: CompiledTerm[];
  notPlay: CompiledTerm[];
  benign: CompiledTerm[];
  nsfwBenign: CompiledTerm[];
  /** lexicons/clinical.ts: sex education and sexual medicine, and the clinical words they excuse. */
  clinicalFrames: CompiledTerm[];
  clinicalWords: CompiledTerm[];
  hateBenign: CompiledTerm[];
  slurs: CompiledTerm[];
  mention: CompiledTerm[];
  groups: CompiledTerm[];
  dehumanizing: CompiledTerm[];
  exclusion: CompiledTerm[];
  predicates: CompiledTerm[];
  /** hate.anaphora, normalised. */
  anaphora: string[];
}

/** naughty-words (CC-BY-4.0, LDNOOBW) for the language, minus what our own lists already classify. */
function naughtyWords(lex: Lexicon): string[] {
  let words: string[] = [];
  try {
    words = require(`naughty-words/${lex.lang}.json`) as string[];
  } catch {
    return [];
  }
  const own = new Set(
    [...lex.nsfw.explicit, ...lex.nsfw.sexual, ...lex.hate.slurs, ...lex.violence.incitement].map((t) =>
      normalize(t, lex.lang).replace(/\*/g, ''),
    ),
  );
  return words.filter((w) => w.trim() && !own.has(normalize(w, lex.lang)));
}

const compiled = new Map<TextLanguage, CompiledLexicon>();

/** The languages whose lexicon has been compiled in this process (warmUpLexicons.ts compiles all). */
export function compiledLanguages(): TextLanguage[] {
  return [...compiled.keys()];
}

export function compiledLexicon(lang: TextLanguage): CompiledLexicon | undefined {
  let c = compiled.get(lang);
  if (!c) {
    const lex = LEXICONS[lang];
    if (!lex) return undefined;
    const except = compileWildcardExceptions(lex.wildcardExceptions, lang);
    const classes: Record<string, CompiledTerm[]> = {
      group: compileTerms(lex.hate.groups, lang, {}, except),
    };
    // In order: a class may use the classes listed before it.
    for (const [name, terms] of Object.entries(lex.classes))
      classes[name] = compileTerms(terms, lang, classes, except);
    const t = (terms: readonly string[]) => compileTerms(terms, lang, classes, except);
    const words = (list: readonly string[] | undefined) =>
      new Set((list ?? []).map((w) => normalize(w, lang)));
    c = {
      lex,
      negBefore: t(lex.negation.before),
      negAfter: t(lex.negation.after),
      negCloseAfter: t(lex.negation.closeAfter ?? []),
      negInto: words(lex.negation.into),
      negRefute: t(lex.negation.refute ?? []),
      negExempt: t([...(lex.negation.rhetorical ?? []), ...(lex.negation.local ?? [])]),
      reporting: t(lex.reporting),
      notReporting: t(lex.notReporting ?? []),
      nsfwExplicit: t(lex.nsfw.explicit),
      nsfwSexual: t(lex.nsfw.sexual),
      nsfwListed: t(naughtyWords(lex)),
      nsfwCues: t(lex.nsfw.cues),
      nsfwAdCues: t(lex.nsfw.adCues ?? []),
      incitement: t(lex.violence.incitement),
      verbs: t(lex.violence.verbs),
      intent: t(lex.violence.intent),
      nounAfter: words(lex.violence.nounAfter),
      nouns: t(lex.violence.nouns ?? []),
      finite: words(lex.violence.finite),
      passive: words(lex.violence.passive),
      participles: words(lex.violence.participles),
      perfect: words(lex.violence.perfect),
      perfectAfter: words(lex.violence.perfectAfter),
      relative: words(lex.violence.relative),
      relativeAfterComma: words(lex.violence.relativeAfterComma),
      coordinators: words(lex.violence.coordinators),
      veiled: t(lex.violence.veiled),
      graphic: t(lex.violence.graphic ?? []),
      threatCues: t(lex.violence.cues ?? []),
      play: t([...(lex.violence.play ?? []), ...LATIN_PLAY]),
      notPlay: t(lex.violence.notPlay ?? []),
      benign: t(lex.violence.benign ?? []),
      nsfwBenign: t(lex.nsfw.benign ?? []),
      clinicalFrames: t(CLINICAL[lang].frames),
      clinicalWords: t(CLINICAL[lang].words),
      hateBenign: t(lex.hate.benign ?? []),
      slurs: t(lex.hate.slurs),
      mention: t(lex.hate.mention ?? []),
      groups: t(lex.hate.groups),
      dehumanizing: t(lex.hate.dehumanizing),
      exclusion: t(lex.hate.exclusion),
      predicates: t(lex.hate.predicates),
      anaphora: (lex.hate.anaphora ?? []).map((a) =>
        a.startsWith('+') ? `+${normalize(a.slice(1), lang)}` : normalize(a, lang),
      ),
    };
    compiled.set(lang, c);
  }
  return c;
}

export interface TextEvidence {
  lang: TextLanguage;
  sentence: string;
  rule: keyof typeof TEXT_WEIGHTS;
  term: string;
  weight: number;
  negated: boolean;
  quoted: boolean;
  reporting: boolean;
  /** Violence in or next to a sentence about a workout or a game. */
  play?: boolean;
}

export interface TextScoreDetails {
  score: number;
  detected: string;
  languages: TextLanguage[];
  evidence: TextEvidence[];
  /** The lexicons' score alone. */
  lexiconScore: number;
  /** The n-gram classifier's verdict (ngramModel.ts); `score` is the higher of the two scores. */
  model: NgramVerdict;
}

/**
 * Clause punctuation in Chinese and Japanese text (character offsets): full and half-width commas,
 * semicolons and stops, and the Japanese 、 (in Chinese 、 only separates the items of a list).
 */
const UNSPACED_CLAUSE_BREAK: Partial<Record<TextLanguage, RegExp>> = {
  zh: /[，,；;。！!？?：:\n]/,
  ja: /[、，,；;。！!？?：:\n]/,
};

/**
 * A clause ends between token `from - 1` and token `to` (spaced languages), or between character
 * offsets `from` and `to` (zh/ja, which have no tokens). A clause end followed by one of `into` (a
 * subordinating word such as ru чтобы) does not count.
 */
function clauseBreak(s: PreparedSentence, from: number, to: number, into?: Set<string>): boolean {
  // "欠钱不还，就把你手指剁下来": the negation of the first clause does not reach the threat.
  if (s.tokens.length === 0) return UNSPACED_CLAUSE_BREAK[s.lang]?.test(s.text.slice(from, to)) ?? false;
  for (let k = Math.max(0, from - 1); k < to && k < s.tokens.length; k += 1) {
    if (!s.tokens[k]!.clauseEnd) continue;
    const next = s.tokens[k + 1];
    if (into && next && next.forms.some((f) => into.has(f))) continue;
    return true;
  }
  return false;
}

/**
 * `exempt`: the sentence's phrases in which a negation negates nothing, a suggesting question ("why
 * don't we just deport them all") or a negation of its own phrase only ("te rajo la cara sin avisar"),
 * of every candidate language: es "si no pagan" keeps the pt and it lexicons' "no"
 * from negating too.
 */
function isNegated(
  s: PreparedSentence,
  c: CompiledLexicon,
  m: TermMatch,
  reader: CompiledLexicon,
  exempt: readonly TermMatch[],
): boolean {
  const window = s.tokens.length > 0 ? NEGATION_WINDOW_WORDS : NEGATION_WINDOW_CHARS;
  // Another language's negation word that is an ordinary word in the reading language does not count.
  const foreign = reader === c ? [] : (reader.lex.negation.foreign ?? []);
  const own = (n: TermMatch) =>
    !foreign.includes(n.term) && !exempt.some((r) => n.start >= r.start && n.end <= r.end);
  // A negation in another clause negates that clause: "plan cul ce soir, pas de prise de tête".
  const before = findTerms(s, c.negBefore).filter(own);
  if (
    before.some(
      (n) => n.end <= m.start && n.end >= m.start - window && !clauseBreak(s, n.end, m.start, c.negInto),
    )
  )
    return true;
  const after = findTerms(s, c.negAfter).filter(own);
  // "... zodat hij nooit meer ...": a result clause between the match and the negation closes it.
  const closers = after.length > 0 && c.negCloseAfter.length > 0 ? findTerms(s, c.negCloseAfter) : [];
  const closed = (n: TermMatch) => closers.some((k) => k.start >= m.end && k.end <= n.start);
  if (
    after.some(
      (n) => n.start >= m.end && n.start <= m.end + window && !clauseBreak(s, m.end, n.start) && !closed(n),
    )
  )
    return true;
  // A refutation after the claim, in any clause of the sentence: "женщины тупее мужчин — это миф".
  if (c.negRefute.length > 0) {
    const reach = s.tokens.length > 0 ? REFUTE_WINDOW_WORDS : REFUTE_WINDOW_CHARS;
    // A refutation denied in turn is none: 我说的不是偏见 (what I say is no prejudice).
    const refuted = findTerms(s, c.negRefute).filter(
      (n) => own(n) && !before.some((b) => b.start < n.start && b.end >= n.start - 1),
    );
    if (refuted.some((n) => n.start >= m.end && n.start <= m.end + reach)) return true;
  }
  // A negation a construction's gap swallowed: "immigrants are not criminals".
  const gaps = m.gaps ?? [];
  return [...before, ...after].some((n) => gaps.some(([a, b]) => n.start >= a && n.end <= b));
}

/**
 * The sentence's intent makes a threat of a violent verb: there is an intent, the word is no noun and
 * no past or third-person form, and it is not inside a relative or interrogative clause that opens
 * after every intent before it.
 */
function intended(
  s: PreparedSentence,
  c: CompiledLexicon,
  intents: readonly TermMatch[],
  m: TermMatch,
): boolean {
  if (intents.length === 0 || isNoun(s, c, m) || isFiniteForm(s, c, m)) return false;
  if (c.relative.size === 0 || s.tokens.length === 0) return true;
  // A passive right before the verb is the main clause's: "I'll make sure the guy who did this gets shot".
  if (precededBy(s, m.start, c.passive, 1)) return true;
  return intents.some((i) => i.start >= m.start || !inRelative(s, c, i.end, m.start));
}

/**
 * A relative or interrogative word between `from` and `to`, with no coordinator after it (`relative`)
 * and not followed by a word of `passive` (you, them, everyone: the clause is then about the reader).
 */
function inRelative(s: PreparedSentence, c: CompiledLexicon, from: number, to: number): boolean {
  for (let k = to - 1; k >= from; k -= 1) {
    const forms = s.tokens[k]!.forms;
    if (forms.some((f) => c.coordinators.has(f))) return false;
    // "I'll make sure that you get hurt": a clause about the reader (or all, everyone) stays a threat.
    const next = s.tokens[k + 1];
    const aboutReader = next !== undefined && next.forms.some((f) => c.passive.has(f));
    if (forms.some((f) => c.relative.has(f)) && !aboutReader) return true;
    if (k > 0 && s.tokens[k - 1]!.clauseEnd && forms.some((f) => c.relativeAfterComma.has(f))) return true;
  }
  return false;
}

/**
 * The antisemitic "echo": a name or a pronoun in triple parentheses, "(((They))) run the banks", marks
 * the people it wraps as Jews. Tokenising drops the brackets, so for the hate policy the echo is read
 * as what it means before the words are: replaced by the lexicon's word for the Jews (`hate.echo`),
 * whose group rules then read the sentence ("jews run the banks"). Alone, like any group word, it is no
 * violation ("(((hugs)))"). One to four words inside, not code: "f(((x)))" has a letter before it.
 */
const ECHO = /(?<![\p{L}\p{N}_])\({3}\s*[\p{L}\p{N}][^()]{0,40}?\){3}/gu;

function readEchoes(normalized: string, lang: TextLanguage, echo: string | undefined): string {
  if (!echo || !normalized.includes('(((')) return normalized;
  const word = isUnspaced(lang) ? echo : ` ${echo} `;
  return normalized.replace(ECHO, (found) =>
    found.slice(3, -3).trim().split(/\s+/).length > 4 ? found : word,
  );
}

/**
 * Slurs written with letters masked by asterisks ("n*ggers", "f@ggot" is not read): tokenising splits
 * them at the asterisk, so for the hate policy a masked word is compared with the lexicon's one-word
 * slurs (4 letters or more), each asterisk standing for one letter, and replaced by the slur it spells
 * ("n*ggers" -> "niggers"). A masked word that spells no slur is left alone ("sh*t", "c*ts").
 */
const MASKED = /(?<![\p{L}\p{N}*])\p{L}+(?:\*+\p{L}*)+/gu;
const maskableSlurs = new WeakMap<CompiledLexicon, Array<{ word: string; prefix: boolean }>>();

function readMasked(normalized: string, c: CompiledLexicon): string {
  if (!normalized.includes('*') || isUnspaced(c.lex.lang)) return normalized;
  let slurs = maskableSlurs.get(c);
  if (!slurs) {
    slurs = c.lex.hate.slurs
      .filter((t) => /^[\p{L}]+\*?$/u.test(t) && t.replace('*', '').length >= 4)
      .map((t) => ({ word: normalize(t.replace('*', ''), c.lex.lang), prefix: t.endsWith('*') }));
    maskableSlurs.set(c, slurs);
  }
  return normalized.replace(MASKED, (masked) => {
    if (masked.replace(/\*/g, '').length < 2) return masked;
    for (const { word, prefix } of slurs) {
      if (prefix ? masked.length < word.length : masked.length !== word.length) continue;
      const head = masked.slice(0, word.length);
      if (!head.includes('*') || head.split('').some((ch, i) => ch !== '*' && ch !== word[i])) continue;
      // A prefix slur keeps the ending the writer gave it: "n*ggers" -> "niggers".
      return word + masked.slice(word.length).replace(/\*/g, '');
    }
    return masked;
  });
}

/** How far before a participle its perfect auxiliary may stand: "ils l'ont sauvagement tué". */
const PERFECT_SPAN = 3;

/**
 * A past or third-person form of a violent verb (`finite`: killed, attacks) that no be, get or object
 * pronoun (`passive`) puts under the intent: "I want to know who killed my dog". Or a participle in a
 * perfect tense (`participles` after a `perfect` auxiliary or, verb-final, right before a
 * `perfectAfter` one): "je veux dire qu'il l'a tué", "ich will wissen, warum sie ihn getötet haben".
 */
function isFiniteForm(s: PreparedSentence, c: CompiledLexicon, m: TermMatch): boolean {
  if (s.tokens.length === 0 || m.end - m.start !== 1) return false;
  const forms = s.tokens[m.start]!.forms;
  if (forms.some((f) => c.finite.has(f))) return !precededBy(s, m.start, c.passive, 2);
  if (!forms.some((f) => c.participles.has(f))) return false;
  const next = s.tokens[m.start + 1];
  const auxiliaryAfter =
    next !== undefined && !s.tokens[m.start]!.clauseEnd && next.forms.some((f) => c.perfectAfter.has(f));
  return auxiliaryAfter || precededBy(s, m.start, c.perfect, PERFECT_SPAN);
}

/** A word of `set` among the `span` words before token `at`, in the same clause (spaced languages). */
function precededBy(s: PreparedSentence, at: number, set: ReadonlySet<string>, span: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - span); k -= 1) {
    const t = s.tokens[k]!;
    if (t.clauseEnd) return false;
    if (t.forms.some((f) => set.has(f))) return true;
  }
  return false;
}

/**
 * A violent word read as a noun: by the word before it ("a stab at", "the attack": `nounAfter`), or
 * because it is one of the language's nouns of violent acts (es asesinato: `nouns`).
 */
function isNoun(s: PreparedSentence, c: CompiledLexicon, m: TermMatch): boolean {
  if (c.nouns.length > 0 && findTerms(s, c.nouns).some((n) => n.start <= m.start && m.end <= n.end))
    return true;
  return c.nounAfter.size > 0 && s.tokens.length > 0 && precededBy(s, m.start, c.nounAfter, 1);
}

/**
 * When the language is uncertain the text is read with several lexicons; negation and reporting words
 * of every candidate language then count (a French reading of an English sentence must still see
 * "not" and "condemned"). Token positions agree because the candidates share one tokenisation.
 */
function contextLexicons(c: CompiledLexicon, others: readonly CompiledLexicon[]): CompiledLexicon[] {
  return [c, ...others.filter((o) => o !== c && !isUnspaced(o.lex.lang) && !isUnspaced(c.lex.lang))];
}

function scoreSentence(
  s: PreparedSentence,
  c: CompiledLexicon,
  policy: ModerationPolicyName,
  original: string,
  candidates: readonly CompiledLexicon[] = [],
): TextEvidence[] {
  const evidence: TextEvidence[] = [];
  const context = contextLexicons(c, candidates);
  // Looked up only once the sentence has some evidence: most sentences have none.
  let reporting: boolean | undefined;
  // Any candidate language's negation counts. Asked by `longest` and again by `add`: computed once a match.
  const negations = new Map<TermMatch, boolean>();
  let exemptMatches: TermMatch[] | undefined;
  const exempt = () =>
    (exemptMatches ??= context.flatMap((x) => (x.negExempt.length > 0 ? findTerms(s, x.negExempt) : [])));
  const negatedHere = (m: TermMatch) => {
    let negated = negations.get(m);
    if (negated === undefined) {
      negated = context.some((x) => isNegated(s, x, m, c, exempt()));
      negations.set(m, negated);
    }
    return negated;
  };
  const add = (rule: keyof typeof TEXT_WEIGHTS, m: TermMatch) => {
    reporting ??= isReporting(s, context);
    // A slur stays a slur when negated ("don't rent to X") unless the sentence talks about the word
    // ("we don't say X any more"); a report or a quotation still damps it.
    // (There any candidate language's negation counts: "no se dice X" read by the Portuguese lexicon.)
    // A lexicon without a mention list keeps the plain rule (a negation damps its slurs too).
    const negated =
      rule === 'hateSlur' && c.lex.hate.mention !== undefined
        ? context.some((x) => findTerms(s, x.mention).length > 0) &&
          context.some((x) => isNegated(s, x, m, x, exempt()))
        : negatedHere(m);
    let weight: number = TEXT_WEIGHTS[rule];
    if (negated) weight *= TEXT_DAMPING.negated;
    if (m.quoted) weight *= TEXT_DAMPING.quoted;
    if (reporting) weight *= TEXT_DAMPING.reporting;
    evidence.push({
      lang: c.lex.lang,
      sentence: original,
      rule,
      term: m.term,
      weight,
      negated,
      quoted: m.quoted,
      reporting,
    });
  };
  const overlaps = (a: TermMatch, list: TermMatch[]) => list.some((b) => overlap(a, b));

  // "blue tits", "faggots and peas", "Zigeunerschnitzel": a match inside an ordinary phrase of the
  // policy's benign list is no evidence. Like negation, any candidate language's list counts: a short
  // Italian text read by the French lexicon too ("la masturbazione è normale, spiega il medico") is
  // excused by the Italian phrase. Looked up on the first match only (most sentences have none).
  const benignOf = (terms: (x: CompiledLexicon) => CompiledTerm[]) => {
    let found: TermMatch[] | undefined;
    return (m: TermMatch) => {
      found ??= context.flatMap((x) => (terms(x).length > 0 ? findTerms(s, terms(x)) : []));
      return found.length > 0 && overlaps(m, found);
    };
  };
  const longest = (found: TermMatch[]) => longestUnnegated(found, negatedHere);
  if (policy === 'nsfw') {
    const benign = benignOf((x) => x.nsfwBenign);
    // A clinical word near a frame of sex education or sexual medicine (lexicons/clinical.ts). The
    // match must lie within the clinical word, so a longer explicit phrase around it still counts.
    let clinicalWords: TermMatch[] | undefined;
    const clinical = (m: TermMatch) => {
      if (clinicalWords === undefined) {
        const frames = context.flatMap((x) => findTerms(s, x.clinicalFrames));
        const reach = s.tokens.length > 0 ? CLINICAL_WINDOW_WORDS : CLINICAL_WINDOW_CHARS;
        clinicalWords =
          frames.length === 0
            ? []
            : context
                .flatMap((x) => findTerms(s, x.clinicalWords))
                .filter((w) => frames.some((f) => w.start - f.end <= reach && f.start - w.end <= reach));
      }
      return clinicalWords.some((w) => w.start <= m.start && m.end <= w.end);
    };
    const ordinary = (m: TermMatch) => benign(m) || clinical(m);
    const explicit = longest(findTerms(s, c.nsfwExplicit)).filter((m) => !ordinary(m));
    const sexual = longest(findTerms(s, c.nsfwSexual)).filter((m) => !overlaps(m, explicit) && !ordinary(m));
    for (const m of explicit) add('nsfwExplicit', m);
    for (const m of sexual) add('nsfwSexual', m);
    const cues = longestMatches(findTerms(s, c.nsfwCues)).filter(
      (m) => !overlaps(m, [...explicit, ...sexual]) && !ordinary(m),
    );
    // A weak cue or a listed word counts once however often it repeats (a placeholder xxx, xx:xx).
    for (const m of onePerTerm(cues)) add('nsfwCue', m);
    const adCues =
      c.nsfwAdCues.length > 0
        ? longestMatches(findTerms(s, c.nsfwAdCues)).filter(
            (m) => !overlaps(m, [...explicit, ...sexual, ...cues]) && !ordinary(m),
          )
        : [];
    for (const m of adCues) add('nsfwAdCue', m);
    for (const m of onePerTerm(longestMatches(findTerms(s, c.nsfwListed))))
      if (!overlaps(m, [...explicit, ...sexual, ...cues, ...adCues]) && !ordinary(m)) add('nsfwListed', m);
  } else if (policy === 'violence') {
    // "Kerzen anzünden", "burn calories": a violence match that overlaps an ordinary phrase is no
    // evidence ("in der Kirche Kerzen anzünden" holds both a place of worship and an arson verb).
    const ordinary = benignOf((x) => x.benign);
    const incitement = longest(findTerms(s, c.incitement)).filter((m) => !ordinary(m));
    for (const m of incitement) add('violenceIncitement', m);
    const veiled = longestMatches(findTerms(s, c.veiled)).filter((m) => !overlaps(m, incitement));
    for (const m of veiled) add('violenceVeiled', m);
    // A picture of a person being hurt, or a killing told with its gore: described, not reported (a
    // report is damped like any other).
    // Ordinary phrases are set aside before the longest matches are kept: "levou um tapa tão forte que
    // bateu a cabeça" keeps the blow when the longer match through the benign "bateu a cabeça" goes.
    const graphic = findTerms(s, c.graphic).filter((m) => !overlaps(m, incitement) && !ordinary(m));
    for (const m of longest(graphic)) add('violenceGraphic', m);
    if (c.threatCues.length > 0)
      for (const m of longestMatches(findTerms(s, c.threatCues)))
        if (!overlaps(m, [...incitement, ...veiled])) add('violenceCue', m);
    const intents = findTerms(s, c.intent);
    for (const m of longestMatches(findTerms(s, c.verbs))) {
      if (!overlaps(m, incitement) && !ordinary(m))
        add(intended(s, c, intents, m) ? 'violenceThreat' : 'violenceVerb', m);
    }
  } else {
    const ordinary = benignOf((x) => x.hateBenign);
    for (const m of longestMatches(findTerms(s, c.slurs))) if (!ordinary(m)) add('hateSlur', m);
    // A group word inside an ordinary phrase names no people: "I hate Mexican food".
    const groups = longestMatches(findTerms(s, c.groups)).filter((m) => !ordinary(m));
    const dehumanizing = longestMatches(findTerms(s, c.dehumanizing)).filter(
      (m) => !overlaps(m, groups) && !ordinary(m),
    );
    const hasGroup = groups.length > 0;
    for (const m of dehumanizing) add(hasGroup ? 'hateDehumanizingGroup' : 'hateDehumanizing', m);
    for (const m of longest(findTerms(s, c.predicates))) if (!ordinary(m)) add('hateGroupPredicate', m);
    if (hasGroup) {
      for (const m of longest(findTerms(s, c.exclusion))) if (!ordinary(m)) add('hateExclusionGroup', m);
      const intents = findTerms(s, c.intent);
      for (const m of longest(findTerms(s, c.incitement))) add('hateViolenceGroup', m);
      const verbs = longestMatches(findTerms(s, c.verbs));
      if (verbs.length > 0) {
        // The violence list's ordinary phrases hold here too: "kill the stereotype that women can't code".
        const notViolent = benignOf((x) => x.benign);
        for (const m of verbs) if (intended(s, c, intents, m) && !notViolent(m)) add('hateViolenceGroup', m);
      }
    }
  }
  return evidence;
}

/** The first match of each term. */
function onePerTerm(matches: readonly TermMatch[]): TermMatch[] {
  const seen = new Set<string>();
  return matches.filter((m) => !seen.has(m.term) && seen.add(m.term));
}

/**
 * The sentence reports (said, police), unless each reporting word sits in a threat ("go to the
 * police"); reporting words and such threats of every candidate language count.
 */
function isReporting(s: PreparedSentence, context: readonly CompiledLexicon[]): boolean {
  const found = context.flatMap((x) => findTerms(s, x.reporting));
  if (found.length === 0) return false;
  const threats = context.flatMap((x) => (x.notReporting.length > 0 ? findTerms(s, x.notReporting) : []));
  return someOutside(found, threats);
}

/** Some match of `found` that no match of `within` holds (a reporting word outside every threat). */
function someOutside(found: readonly TermMatch[], within: readonly TermMatch[]): boolean {
  return found.some((m) => !within.some((w) => w.start <= m.start && m.end <= w.end));
}

/**
 * Evidence that counts together over two neighbouring sentences: veiled and weak threat cues ("I know
 * where you live. Would be a shame if ..."), and a commercial-sex cue with a sexual word or another
 * cue ("今晚出来开房吗？房费我出": a hotel room tonight, then "I pay for the room"). Two sexual words
 * alone do not pair: a quotation about sex that names it twice ("Il sesso non è la risposta. Il sesso
 * è la domanda") is no more sexual content over two sentences than it was in one.
 */
const PAIRED: Readonly<Record<ModerationPolicyName, ReadonlySet<keyof typeof TEXT_WEIGHTS>>> = {
  violence: new Set(['violenceVeiled', 'violenceCue']),
  nsfw: new Set(['nsfwSexual', 'nsfwCue']),
  hate: new Set(),
};

/** Whether the paired evidence of two neighbouring sentences adds up (see PAIRED). */
function pairs(
  policy: ModerationPolicyName,
  a: readonly TextEvidence[],
  b: readonly TextEvidence[],
): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (policy !== 'nsfw') return true;
  const both = [...a, ...b];
  return both.some((e) => e.rule === 'nsfwCue') && new Set(both.map((e) => e.term)).size > 1;
}

/** The paired evidence of two neighbouring sentences together, each sentence damped as a whole. */
function pairScore(a: readonly TextEvidence[], b: readonly TextEvidence[]): number {
  return 1 - (1 - sentenceScore(a)) * (1 - sentenceScore(b));
}

function noisyOr(weights: number[]): number {
  return 1 - weights.reduce((p, w) => p * (1 - Math.min(1, Math.max(0, w))), 1);
}

/**
 * A sentence's score from its evidence. Reporting and play damp the sentence as a whole, not each
 * piece: a report that names two expulsions ("the memorial recalls the deportation ... to the gas
 * chambers") scores like a report of one, 0.35 at most, instead of adding up past the threshold.
 */
function sentenceScore(evidence: readonly TextEvidence[]): number {
  if (evidence.length === 0) return 0;
  const e = evidence[0]!;
  const factor = (e.reporting ? TEXT_DAMPING.reporting : 1) * (e.play ? TEXT_DAMPING.play : 1);
  return noisyOr(evidence.map((x) => x.weight / factor)) * factor;
}

export function calibrate(raw: number): number {
  return Math.round((0.01 + 0.98 * Math.min(1, Math.max(0, raw))) * 10_000) / 10_000;
}

/**
 * A play word that no `notPlay` phrase holds ("in the game", not "after the match"). The play words
 * and the phrases of every candidate language count together, as reporting words and their threats
 * do: es "al árbitro hay que partirle las piernas" names a referee as a target (es `notPlay`), and
 * the same word read as it "arbitro", a word of play, no longer damps it.
 */
function isPlaySentence(s: PreparedSentence, context: readonly CompiledLexicon[]): boolean {
  const play = context.flatMap((l) => findTerms(s, l.play));
  if (play.length === 0) return false;
  return someOutside(
    play,
    context.flatMap((l) => (l.notPlay.length > 0 ? findTerms(s, l.notPlay) : [])),
  );
}

/**
 * The sentence opens with a refutation in one of the lexicons (spaced languages; zh, ja and ko write
 * theirs after the claim in the same sentence): "Women are too dumb to lead. That is a sexist myth."
 * The refutation must end its clause, or one word later ("Eso es un mito racista."): in "C'est un
 * crime de le nier" (it is a crime to deny it) the words "c'est un crime" do not deny what came before.
 */
function opensWithRefutation(s: PreparedSentence, lexicons: readonly CompiledLexicon[]): boolean {
  if (s.tokens.length === 0) return false;
  return lexicons.some(
    (l) =>
      l.negRefute.length > 0 &&
      findTerms(s, l.negRefute).some(
        (n) =>
          n.start <= REFUTE_OPENING_WORDS &&
          (s.tokens[n.end - 1]!.clauseEnd || s.tokens[n.end]?.clauseEnd === true),
      ),
  );
}

/**
 * The group named last in a sentence, as written there (normalised), or undefined: the words a
 * following "they" stands for. A group word inside an ordinary phrase ("Mexican food") names no one.
 */
function lastGroup(s: PreparedSentence, c: CompiledLexicon): string | undefined {
  const ordinary = c.hateBenign.length > 0 ? findTerms(s, c.hateBenign) : [];
  const groups = longestMatches(findTerms(s, c.groups)).filter((m) => !ordinary.some((o) => overlap(m, o)));
  const last = groups.at(-1);
  if (!last) return undefined;
  if (s.tokens.length === 0) return s.text.slice(last.start, last.end);
  return s.tokens
    .slice(last.start, last.end)
    .map((t) => t.text)
    .join(' ');
}

/**
 * Where the anaphor the sentence opens with ("they", 他们, 그들: one of the lexicon's `hate.anaphora`)
 * stands, or undefined when it opens with none.
 */
function openingAnaphor(
  text: string,
  lang: TextLanguage,
  anaphora: readonly string[],
): { start: number; end: number } | undefined {
  const start = text.search(/[\p{L}\p{N}]/u);
  if (start < 0) return undefined;
  for (const entry of anaphora) {
    // '+son': the subject left out before a verb (es "Son todos ladrones"); the group goes before it.
    const kept = entry.startsWith('+');
    const a = kept ? entry.slice(1) : entry;
    if (!text.startsWith(a, start)) continue;
    // In spaced languages the anaphor is a whole word ("they", not "theyre" or "ilsa").
    const after = text.charAt(start + a.length);
    if (!isUnspaced(lang) && lang !== 'ko' && /[\p{L}\p{N}]/u.test(after)) continue;
    return { start, end: kept ? start : start + a.length };
  }
  return undefined;
}

/** Scores a text with the lexicons of the given languages (no language identification). */
export function scoreTextWithLanguages(
  text: string,
  policy: ModerationPolicyName,
  languages: readonly TextLanguage[],
): { raw: number; evidence: TextEvidence[] } {
  let raw = 0;
  const all: TextEvidence[] = [];
  const candidates = languages
    .map((l) => compiledLexicon(l))
    .filter((c): c is CompiledLexicon => c !== undefined);
  for (const c of candidates) {
    const lang = c.lex.lang;
    // Sentences are split before lower-casing: ICU starts a sentence only at a capital letter.
    const echo = policy === 'hate' ? c.lex.hate.echo : undefined;
    const split = splitSentences(text, lang).map((sentence) => normalize(sentence.text, lang));
    const sentences = carryQuotations(split).map((normalized, i) => {
      const read = readEchoes(policy === 'hate' ? readMasked(normalized, c) : normalized, lang, echo);
      return { original: split[i]!.trim(), read, prepared: prepareSentence(read, lang) };
    });
    const anaphora = policy === 'hate' ? c.anaphora : [];
    // Play (a workout, a game) damps the violence of its sentence and of the neighbouring ones.
    // Like negation and reporting, any candidate language's play words count; looked up only for a
    // sentence with violence evidence.
    const context = contextLexicons(c, candidates);
    const playful: Array<boolean | undefined> = [];
    const isPlay = (i: number) =>
      i >= 0 && i < sentences.length && (playful[i] ??= isPlaySentence(sentences[i]!.prepared, context));
    const paired = PAIRED[policy];
    let previousWeak: TextEvidence[] = [];
    sentences.forEach(({ original, read, prepared }, i) => {
      let evidence = scoreSentence(prepared, c, policy, original, candidates);
      // "… the migrants in our street. They are all thieves.": read "they" as the group named just before.
      const anaphor = i > 0 && anaphora.length > 0 ? openingAnaphor(read, lang, anaphora) : undefined;
      const group = anaphor && lastGroup(sentences[i - 1]!.prepared, c);
      if (anaphor && group) {
        const space = anaphor.end === anaphor.start && !isUnspaced(lang) ? ' ' : '';
        const replaced = read.slice(0, anaphor.start) + group + space + read.slice(anaphor.end);
        const carried = scoreSentence(prepareSentence(replaced, lang), c, policy, original, candidates);
        if (sentenceScore(carried) > sentenceScore(evidence)) evidence = carried;
      }
      // A hateful claim the next sentence calls a myth or a lie is denied, as a negation would.
      if (
        policy === 'hate' &&
        evidence.some((e) => !e.negated) &&
        i + 1 < sentences.length &&
        !sentences[i + 1]!.original.endsWith('?') &&
        opensWithRefutation(sentences[i + 1]!.prepared, context)
      )
        evidence = evidence.map((e) =>
          e.negated ? e : { ...e, weight: e.weight * TEXT_DAMPING.negated, negated: true },
        );
      if (policy === 'violence' && evidence.length > 0 && (isPlay(i - 1) || isPlay(i) || isPlay(i + 1)))
        evidence = evidence.map((e) => ({ ...e, weight: e.weight * TEXT_DAMPING.play, play: true }));
      all.push(...evidence);
      raw = Math.max(raw, sentenceScore(evidence));
      // Weak evidence of two neighbouring sentences counts together (PAIRED).
      const weak = evidence.filter((e) => paired.has(e.rule));
      if (pairs(policy, previousWeak, weak)) raw = Math.max(raw, pairScore(previousWeak, weak));
      previousWeak = weak;
    });
  }
  return { raw, evidence: all };
}

/**
 * Where weak evidence of both readers flags a text (scoreTextDetailed): a lexicon score of at least
 * `lexicon` (any one word of the policy, read plainly; a dehumanising word alone does not count) with a
 * model probability of at least `probability`, below the model's own threshold (0.8), gives `score`.
 * Chosen on the fourteenth blind set's misses, checked against ordinary text and the precision pass's
 * probes (docs/moderation.md, "The n-gram classifier"; docs/moderation-rounds.md, round 14).
 */
export const JOINT = { lexicon: 0.2, probability: 0.7, score: 0.55 } as const;

/**
 * Identifies the language(s), scores with their lexicons, and asks the n-gram classifier: the score
 * is the higher of the two (or JOINT's, where weak evidence of both meets). The classifier reads the
 * text without its quotations and counts only from its threshold (ngramModel.ts), and not at all where
 * the lexicons read a piece of evidence as negated, quoted, reported or play. `evidence` says which
 * words and rules produced the lexicons' score.
 */
export async function scoreTextDetailed(
  text: string,
  policy: ModerationPolicyName,
): Promise<TextScoreDetails> {
  const { detected, languages } = await identifyLanguages(text);
  const { raw, evidence } = scoreTextWithLanguages(text, policy, languages);
  const lexiconScore = calibrate(raw);
  // The model cannot tell a quotation from the writer's own words; the lexicons damp what is quoted
  // ("Someone wrote «that teacher deserves a slap», I reported it"), so the model reads the rest.
  const model = judge(builtInNgramModel(), withoutQuotations(text) ?? text, policy);
  // The model reads n-grams, not syntax: where the lexicons found evidence and read it as negated,
  // quoted, reported or play ("We don't want to deport them", "C'est faux"), their reading stands.
  const overruled = evidence.some((e) => e.negated || e.quoted || e.reporting || e.play === true);
  const modelScore = overruled ? 0 : model.score;
  // Weak evidence of both readers together: a word of the policy the lexicons found, read plainly,
  // and a model leaning the same way below its own threshold ("Would be a shame if the tyres got
  // slashed and you got dragged out of it one night": a violent word, and 0.72).
  // A dehumanising word needs a group named beside it, whatever the model thinks of the word
  // ("Those parasites ruined my garden").
  const plain = evidence.filter((e) => e.rule !== 'hateDehumanizing');
  const joint =
    !overruled && calibrate(sentenceScore(plain)) >= JOINT.lexicon && model.probability >= JOINT.probability
      ? JOINT.score
      : 0;
  return {
    score: Math.max(lexiconScore, modelScore, joint),
    lexiconScore,
    detected,
    languages,
    evidence,
    model,
  };
}

export async function scoreText(text: string, policy: ModerationPolicyName): Promise<number> {
  return (await scoreTextDetailed(text, policy)).score;
}
