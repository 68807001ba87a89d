import type { TextLanguage } from '../languages.js';

/**
 * One language's word lists. A term is matched against normalised text (see tokenize.ts: lower case,
 * accents removed for alphabetic scripts). In spaced languages a term is one or more words;
 * `word*` matches any word starting with `word`, `*word` any word ending with it (German and Dutch
 * compounds). In Chinese and Japanese a term is a substring; a one-character term must also be a whole
 * word by Intl.Segmenter's boundaries. `{num}` is any number in every language unless `classes.num` is
 * defined.
 *
 * A term can also state a construction rather than fixed words: `{name}` stands for any term of the
 * word class `classes.name` (`{group}` is `hate.groups`), `~N` for up to N words of any kind (in zh/ja
 * up to N characters). `{harm} ~2 {possessive} {body}` reads "crack his skull" and "smash both her
 * knees" without listing either; a negation word inside a gap negates the match ("are not criminals").
 * In spaced languages `!word` or `!{name}` means "not followed by": `ich bringe dich um !{clock}` reads
 * the threat but not "ich bringe dich um acht nach Hause", and `$` a clause boundary (a comma, a dash,
 * either end of the sentence): "you wo not make it to {tf} $" reads "you won't make it to Friday."
 * but not "... to Friday's meeting"; "$ der ~3 erschossen hat" reads a relative clause.
 * In zh/ja `!{name}` / `!word` is "not followed by" too (`砸烂!{body}`), a negation inside a `~N` gap
 * negates the match as in spaced languages, and a trailing `$` ends the term at the end of a clause (punctuation or the end of the text):
 * `{group}は~4気持ち悪い~3$` reads "X are disgusting" but not "X dislike disgusting insects".
 */
export interface Lexicon {
  lang: TextLanguage;
  /**
   * Words that no `word*` or `*word` term of this lexicon reads (`word*` here: any word starting so):
   * fr `viole*` (violer, to rape) must not read "violette" or "violence", and a threat's first person
   * beside it ("je vais acheter des violettes") would make it one.
   */
  wildcardExceptions?: string[];
  /**
   * Word classes for constructions: harm verbs, body parts, possessives and object pronouns, crime
   * nouns, sexual acts... Each entry is a term (words, wildcards; no classes inside a class).
   */
  classes: Record<string, string[]>;
  /**
   * Negation words; `before` are looked for up to 3 words (6 characters in zh/ja) before a match, `after`
   * after it. `foreign`: other languages' negation words that are ordinary words here and must not negate
   * this lexicon's matches when a text is read by several lexicons (pt `no` is "in the", it `ne` "of it").
   */
  negation: {
    before: string[];
    after: string[];
    foreign?: string[];
    /**
     * Words that open a subordinate clause a negation before it reaches into, across the comma the
     * language writes there: ru `чтобы` in "я не хочу, чтобы ты умер" (I don't want you to die).
     */
    into?: string[];
    /**
     * Words that open a following clause of result or purpose, written without a comma: a negation
     * after the match and beyond one of them belongs to that clause, not to the match. nl `zodat` in
     * "ze sloegen hem in elkaar zodat hij nooit meer zou praten" (so that he would never talk again).
     */
    closeAfter?: string[];
    /**
     * Words after a claim that deny it, reaching across clause ends in the same sentence (up to
     * REFUTE_WINDOW_WORDS after the match): ru `это миф` in "женщины тупее мужчин — это миф".
     */
    refute?: string[];
    /**
     * Questions that suggest, not deny: a negation word inside a match of one of them negates
     * nothing. en `why do not we` in "why don't we just deport them all?", de `warum ~4 nicht mal` in
     * "warum schmeißen wir die nicht mal raus?". A question about the past ("why didn't he") is not one.
     */
    rhetorical?: string[];
    /**
     * Phrases whose negation word negates only the phrase itself: es `sin avisar` (without warning)
     * in "te rajo la cara sin avisar". A negation word inside a match of one
     * of them negates no other match.
     */
    local?: string[];
  };
  /** Words of reported speech and news (said, police, court, according to): they damp a sentence's evidence. */
  reporting: string[];
  /**
   * Phrases in which a reporting word is part of a threat, not a report: "before you go to the police",
   * "ob du zur Polizei gehst". A reporting match inside one of them does not damp the sentence.
   */
  notReporting?: string[];
  nsfw: {
    /** Explicit sexual content on its own (0.9). */
    explicit: string[];
    /** Sexual but not explicit alone (0.45 each, two make a violation). */
    sexual: string[];
    /**
     * Weak cues of a commercial sex offer that are ordinary alone or in pairs: discreet, per half hour,
     * home or hotel visits (0.25 each; three, or one with a sexual term, make a violation).
     */
    cues: string[];
    /**
     * The plainest signs of an ad, as common in a cleaner's or a tutor's ad as in an escort's: a price
     * per hour, "new in town", "text only", "no rush" (0.10 each; they tip one sexual term over the
     * threshold, and four of them with a weak cue still do not).
     */
    adCues?: string[];
    /**
     * Ordinary phrases built on a sexual word: a bird ("blue tits"), a farm ("the cock crowed"). A
     * sexual match, a cue or an ad cue that overlaps one of them is not evidence.
     */
    benign?: string[];
  };
  violence: {
    /** Threats, incitement and graphic violence that need no context (0.9). */
    incitement: string[];
    /** Violent acts against people (0.2 alone; 0.85 with intent). */
    verbs: string[];
    /** First-person intent, wishes and calls to act: I will, let's, should, deserve. */
    intent: string[];
    /**
     * Words after which a word of `verbs` is a noun, not an act (spaced languages; the word right
     * before the match): "a stab at the crossword", "dance to the beat", "my attack". Such a noun still
     * counts as a violent word (violenceVerb) but does not make a threat with the sentence's intent:
     * "I will tell you about the attack" is no threat. Only words that never stand before a verb
     * belong here (English "her" does: "watch her burn").
     */
    nounAfter?: string[];
    /**
     * Nouns of violent acts that a stem of `verbs` also reads (es `asesin*` reads asesinato, nl
     * `schiet*` schietpartij): like a noun after `nounAfter`, a violent word but no threat. "Quiero
     * leer un libro sobre el asesinato de Kennedy" is no threat.
     */
    nouns?: string[];
    /**
     * Forms of a violent verb that the sentence's intent does not govern by themselves: past and
     * third-person forms (killed, shot, attacks). "I want to know who killed my dog" and "we must help
     * the victims who were raped" are no threats. Such a form makes one only right after a word of
     * `passive` (one word between at most): "you will be killed", "I hope you get stabbed", "I want
     * them all shot". Otherwise it counts as a violent word.
     */
    finite?: string[];
    /** Words before a `finite` form that make it the intent's: be, get, and object pronouns. */
    passive?: string[];
    /**
     * Past participles of violent verbs that are past only in a perfect tense (fr tué, it ucciso, nl
     * vermoord, de getötet): written alone they can also be a present form ("je te tue", "ik vermoord
     * je") or a passive the intent governs ("tu seras tué", "er gehört erschossen"). After a word of
     * `perfect` (up to three words before, in the same clause) or right before a word of
     * `perfectAfter` (German and Dutch put the auxiliary last: "getötet haben", "vermoord heeft"),
     * such a participle is a finite past form like those of `finite`: "je veux dire qu'il l'a tué",
     * "ik wil de mensen helpen die zijn verkracht".
     */
    participles?: string[];
    /** The perfect tense's auxiliaries before the participle (fr a, ont, avait; it ha, hanno; de hat). */
    perfect?: string[];
    /** Auxiliaries right after the participle, in a verb-final clause (de haben, worden; nl heeft). */
    perfectAfter?: string[];
    /**
     * Words that open a relative or interrogative clause (who, whom, which; fr qui; de wer): a violent
     * verb after one of them, with the intent before it, belongs to that clause and not to the intent.
     * "Je veux savoir qui a tué mon chien", "we must help the victims who were raped". A word of
     * `coordinators` after it ("and", "et") hands the verb back to the intent: "I will find out who did
     * this and kill him".
     */
    relative?: string[];
    /** Words that open a relative clause only after a comma (de der, die, das: they are articles too). */
    relativeAfterComma?: string[];
    coordinators?: string[];
    /**
     * Veiled threats with no violent verb: watch your back, be careful on your way home tonight, we'll
     * get you (0.45 each; two in a sentence make a violation). Unmistakable ones ("we know where you
     * live", "you won't wake up tomorrow") are incitement.
     */
    veiled: string[];
    /**
     * Violence against a person shown or told graphically, not threatened (0.7): a request for or a
     * caption of a picture of a person being hurt ("a photo of a soldier strangling a prisoner",
     * "draw a man being stabbed"), or a violent act with its gore ("stabbed to death, blood
     * everywhere", "shot in the head, brains on the wall"). A news report of the same is damped by its
     * reporting words like any other evidence.
     */
    graphic?: string[];
    /**
     * Weaker pieces of a veiled threat, ordinary even in pairs: an ultimatum ("keep talking and", "or
     * else", "one more message and"), "think carefully", the reader's wife or children named (0.25
     * each; one beside a veiled cue, or three, make a violation). Veiled cues and these count together
     * over two neighbouring sentences: "I know where you live. Think about your kids."
     */
    cues?: string[];
    /**
     * Play: a workout, a video game, a board game. A threat in such a sentence, or next to one, is
     * banter ("je vais te faire souffrir: 50 burpees", "in der nächsten Runde bist du tot"): its
     * violence evidence is damped like a report. Game names written in Latin letters (Fortnite, PvP,
     * respawn) count for every language (lexicons/play.ts); list here the language's own words for a
     * game, a round, a match, a workout.
     */
    play?: string[];
    /**
     * Phrases that hold a play word but name a time or a place, not a game: "after the match", "nach
     * dem Spiel", "после матча". A play word inside one does not damp: hooligans arranging a fight
     * after the match are no banter.
     */
    notPlay?: string[];
    /**
     * Ordinary phrases built on a violent word: "kill time", "Kerzen anzünden", "burn calories". A
     * violence match that overlaps one of them is not evidence. (Where the ordinary word follows, `!` in
     * the term does the same; this list also covers an object before the verb.)
     */
    benign?: string[];
  };
  hate: {
    /** Slurs for protected groups (0.85). */
    slurs: string[];
    /**
     * Words that talk about a word (say, call, the word, offensive): a negated slur is damped only
     * beside one of them ("we don't say X any more"); otherwise the negation does not excuse it
     * ("don't rent to X", "keine X in unserem Verein").
     */
    mention?: string[];
    /**
     * The language's word for the Jews, which an antisemitic "echo" in triple parentheses stands for:
     * "(((they))) run the banks" is read as "jews run the banks" by the group rules (scoreText.ts).
     */
    echo?: string;
    /**
     * Words that open a sentence and stand for the group named in the sentence before: "Look at the
     * migrants in our street. They are all thieves." (en `they`). The sentence is then also read with
     * the group's own words in their place, so the group rules read "migrants are all thieves".
     * Written normalised (lower case, no accents); in zh, ja and ko the word may run into the next
     * (그들은: 그들 + the particle 은). An entry written `+son` is a word that opens a sentence whose
     * subject is left out (es "Son todos ladrones", ja 全員犯罪者だ): the group goes before it.
     */
    anaphora?: string[];
    /** Neutral names of protected groups (no weight alone). */
    groups: string[];
    /** Dehumanising words: vermin, parasites, animals, disease (0.2 alone; 0.9 with a group). */
    dehumanizing: string[];
    /** Calls to exclude, expel or eliminate (0.85 with a group). */
    exclusion: string[];
    /**
     * A protected group said to be criminal, vermin or inferior: constructions that name the group
     * themselves, such as `{group} are ~2 {crime}` (0.9).
     */
    predicates: string[];
    /**
     * Ordinary phrases that hold a slur's letters: a dish ("faggots and peas", "Zigeunerschnitzel"), a
     * history lesson. A hate match (a slur, a group, a dehumanising word, a predicate or an exclusion
     * word) that overlaps one of them is not evidence.
     */
    benign?: string[];
  };
}
