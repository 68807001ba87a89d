import { describe, expect, it } from 'vitest';
import { identifyLanguages } from '../../../src/engines/moderation/text/languageId.js';
import {
  JOINT,
  TEXT_DAMPING,
  TEXT_WEIGHTS,
  calibrate,
  scoreTextDetailed,
} from '../../../src/engines/moderation/text/scoreText.js';
import type { TextLanguage } from '../../../src/engines/moderation/text/languages.js';
import { LEXICONS } from '../../../src/engines/moderation/text/lexicons/index.js';
import {
  compileTerms,
  compileWildcardExceptions,
  findTerms,
  longestMatches,
  longestUnnegated,
  prepareSentence,
} from '../../../src/engines/moderation/text/matchTerms.js';
import {
  normalize,
  quotedRanges,
  splitSentences,
  withoutQuotations,
  wordBoundaries,
  wordTokens,
} from '../../../src/engines/moderation/text/tokenize.js';

type Policy = Parameters<typeof scoreTextDetailed>[1];

/** Each text scores at or above the threshold (0.5) for the policy; a failure names the text. */
async function expectFlagged(texts: readonly string[], policy: Policy): Promise<void> {
  for (const text of texts)
    expect((await scoreTextDetailed(text, policy)).score, text).toBeGreaterThanOrEqual(0.5);
}

/** Each text scores below the threshold for the policy. */
async function expectNotFlagged(texts: readonly string[], policy: Policy): Promise<void> {
  for (const text of texts) expect((await scoreTextDetailed(text, policy)).score, text).toBeLessThan(0.5);
}

/**
 * The lexicons read each text as below the threshold, though the n-gram model (alone, or with the
 * lexicons' weak evidence: JOINT) flags it; docs/moderation.md, "The n-gram classifier", lists these.
 * For the rules these tests are about, whose reading the model's does not replace.
 */
async function expectLexiconsOnlyNotFlag(texts: readonly string[], policy: Policy): Promise<void> {
  for (const text of texts) {
    const d = await scoreTextDetailed(text, policy);
    expect(d.lexiconScore, text).toBeLessThan(0.5);
    expect(
      d.score,
      `${text}: neither the n-gram model nor the joint rule flags it any more; use expectNotFlagged`,
    ).toBeGreaterThanOrEqual(0.5);
  }
}

/** Each text is no violation yet still holds a violent word (violenceVerb): no threat, not unread. */
async function expectViolentWordOnly(texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    const d = await scoreTextDetailed(text, 'violence');
    expect(d.score, text).toBeLessThan(0.5);
    expect(
      d.evidence.some((e) => e.rule === 'violenceVerb'),
      text,
    ).toBe(true);
  }
}

describe('language identification', () => {
  it.each([
    ['The committee will publish its annual report on renewable energy next week.', 'en'],
    ['Le comité publiera la semaine prochaine son rapport annuel sur les énergies renouvelables.', 'fr'],
    ['El comité publicará la próxima semana su informe anual sobre energías renovables.', 'es'],
    [
      'Der Ausschuss wird nächste Woche seinen Jahresbericht über erneuerbare Energien veröffentlichen.',
      'de',
    ],
    [
      'Il comitato pubblicherà la prossima settimana il suo rapporto annuale sulle energie rinnovabili.',
      'it',
    ],
    ['O comitê publicará na próxima semana seu relatório anual sobre energias renováveis.', 'pt'],
    ['De commissie publiceert volgende week haar jaarverslag over hernieuwbare energie.', 'nl'],
    ['Комитет опубликует свой ежегодный доклад о возобновляемой энергии на следующей неделе.', 'ru'],
    ['ستنشر اللجنة تقريرها السنوي عن الطاقة المتجددة الأسبوع المقبل.', 'ar'],
    ['委员会将于下周发布关于可再生能源的年度报告。', 'zh'],
    ['委員会は来週、再生可能エネルギーに関する年次報告書を公表する。', 'ja'],
    ['위원회는 다음 주에 재생 에너지에 관한 연례 보고서를 발표할 예정이다.', 'ko'],
  ])('identifies %s as %s', async (text, lang) => {
    const id = await identifyLanguages(text);
    expect(id.languages[0]).toBe(lang);
  });

  it('reads the few Latin words of a CJK, Arabic or Cyrillic text as English', async () => {
    expect((await identifyLanguages('今日はとてもOKな一日だった、ありがとう。')).languages).toEqual([
      'ja',
      'en',
    ]);
    expect(
      (await identifyLanguages('Это был очень хороший и тёплый летний день, thanks.')).languages,
    ).toEqual(['ru', 'en']);
  });

  it('reads an unsure short Latin text with every Latin-script lexicon', async () => {
    const id = await identifyLanguages('Voy a matarte');
    expect(id.languages).toEqual(expect.arrayContaining(['es', 'pt', 'fr', 'en', 'it', 'de', 'nl']));
  });

  it('reads a short text with every Latin lexicon even when cld3 calls it reliably, its guess first', async () => {
    // cld3 calls this French threat Portuguese, reliably.
    const id = await identifyLanguages('Je vais te crever.');
    expect(id.reliable).toBe(false);
    expect(id.languages).toEqual(expect.arrayContaining(['es', 'pt', 'fr', 'en', 'it', 'de', 'nl']));
    expect((await scoreTextDetailed('Je vais te crever.', 'violence')).score).toBeGreaterThanOrEqual(0.5);
    const long = await identifyLanguages(
      'Le comité publiera la semaine prochaine son rapport annuel sur les énergies renouvelables.',
    );
    expect(long.languages).toEqual(['fr', 'en']);
  });
});

describe('tokenisation', () => {
  it('finds Chinese and Japanese word boundaries with Intl.Segmenter', () => {
    const zh = wordBoundaries('我们在海边游泳', 'zh');
    expect(zh.size).toBeGreaterThan(3);
    expect(wordBoundaries('夕日が沈むまで海で泳いだ', 'ja').size).toBeGreaterThan(4);
  });

  it('normalises accents, case, apostrophes and English contractions', () => {
    expect(normalize('Töten ÉTÉ', 'de')).toBe('toten ete');
    expect(normalize('Scheiße, sœur, Æsop', 'de')).toBe('scheisse, soeur, aesop');
    expect(normalize('I won’t', 'en')).toBe('i wo not');
    expect(wordTokens(normalize("l'immigré", 'fr'), 'fr').map((t) => t.text)).toEqual(['l', 'immigre']);
  });

  it('strips Arabic clitics and harakat', () => {
    const [token] = wordTokens(normalize('وَالمُهاجِرون', 'ar'), 'ar');
    expect(token!.forms).toContain('مهاجرون');
  });

  it('reads the spoken demonstrative هال ("these") off an Arabic word, as it reads ال', async () => {
    const [token] = wordTokens(normalize('وهالسوريين', 'ar'), 'ar');
    expect(token!.forms).toContain('سوريين');
    await expectFlagged(
      ['هالسوريين كلهم حرامية ولازم يرجعوا على بلدهم', 'هاللاجئين حشرات لازم نطردهم'],
      'hate',
    );
    // Cardamom (هال) and a halo (هالة) leave nothing to read; ordinary talk of "these" stays ok.
    await expectNotFlagged(
      ['بحب القهوة مع الهال والهالة حول القمر', 'هالمسلمين بيصوموا رمضان كل سنة'],
      'hate',
    );
  });

  it('reads single quotation marks, not apostrophes inside words', () => {
    const ranges = (text: string) => quotedRanges(normalize(text, 'en'));
    expect(ranges("She calls her cat 'pussy' at the vet.")).toHaveLength(1);
    expect(ranges("L'arbre n'est pas tombé, don't worry, it's fine.")).toHaveLength(0);
    const tokens = wordTokens(normalize("he shouted 'I will kill you' at the ref", 'en'), 'en');
    expect(tokens.filter((t) => t.quoted).map((t) => t.text)).toEqual(['i', 'will', 'kill', 'you']);
  });

  it('closes a single quotation before Arabic punctuation and before a Korean particle', () => {
    const quoted = (text: string, lang: TextLanguage, inside: string) => {
      const t = normalize(text, lang);
      const at = t.indexOf(normalize(inside, lang));
      return quotedRanges(t).some(([a, b]) => at > a && at + inside.length <= b);
    };
    expect(quoted("بوست مكتوب فيه 'كل اللاجئين مجرمين'، بلغت عنه", 'ar', 'مجرمين')).toBe(true);
    expect(quoted("누가 '사장 죽여버린다'는 쪽지를 남겼다", 'ko', '죽여버린다')).toBe(true);
    expect(quoted('누가 사장 죽여버린다는 쪽지를 남겼다', 'ko', '죽여버린다')).toBe(false);
  });

  it('gives the n-gram model the text without its quotations, unless little is left', () => {
    expect(
      withoutQuotations('Alguém escreveu no grupo «essa professora merecia levar uns tapas», tirei print.'),
    ).toMatch(/^Alguém escreveu no grupo\s+, tirei print\.$/);
    expect(withoutQuotations('有人在群里写了「那个老师欠揍」，我截图发给了校长。')).not.toContain('欠揍');
    // Mostly one quotation: read whole, so quoting a threat does not hide it from the model.
    expect(withoutQuotations('"I will find you and kill you" lol')).toBeUndefined();
    expect(withoutQuotations('No quotation here at all.')).toBeUndefined();
  });

  it('marks where a clause ends: punctuation between two words, or the last word', () => {
    const ends = (text: string, lang: TextLanguage) =>
      wordTokens(normalize(text, lang), lang)
        .filter((t) => t.clauseEnd)
        .map((t) => t.text);
    expect(ends('Plan cul ce soir, pas de prise de tête', 'fr')).toEqual(['soir', 'tete']);
    expect(ends('Tu verras pas la fin de la semaine, crois-moi', 'fr')).toEqual(['semaine', 'moi']);
    expect(ends('Zahlst du nicht – brennt es', 'de')).toEqual(['nicht', 'es']);
  });

  it('gives Spanish and Italian verbs with attached pronouns their bare form too', () => {
    const forms = (word: string, lang: TextLanguage) => wordTokens(word, lang)[0]!.forms;
    expect(forms('molerlos', 'es')).toEqual(['molerlos', 'moler']);
    expect(forms('matarte', 'es')).toEqual(['matarte', 'matar']);
    expect(forms('pegandole', 'es')).toEqual(['pegandole', 'pegando']);
    expect(forms('ammazzarlo', 'it')).toEqual(['ammazzarlo', 'ammazzare']);
    expect(forms('facciamoli', 'it')).toEqual(['facciamoli', 'facciamo']);
    // Words that only look like it keep one form.
    expect(forms('palos', 'es')).toEqual(['palos']);
    expect(forms('carne', 'it')).toEqual(['carne']);
    expect(forms('molerlos', 'pt')).toEqual(['molerlos']);
  });

  it('joins a German or Dutch separable particle at the end of its clause to the verb before it', async () => {
    const forms = (text: string, lang: TextLanguage) =>
      wordTokens(normalize(text, lang), lang).map((t) => t.forms);
    expect(forms('ich stech dich ab', 'de')[1]).toEqual(['stech', 'abstech']);
    expect(forms('ik steek je neer', 'nl')[1]).toEqual(['steek', 'neersteek']);
    // Not when the particle does not end the clause: "um acht" is a time.
    expect(forms('ich bringe dich um acht nach Hause', 'de')[1]).toEqual(['bringe']);
    // So the lexicons read both word orders of the same verb.
    expect(
      (await scoreTextDetailed('Wir legen dich um, du Ratte.', 'violence')).score,
    ).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed('We leggen je om, verrader.', 'violence')).score).toBeGreaterThanOrEqual(
      0.5,
    );
    expect((await scoreTextDetailed('Wir legen die Decke um.', 'violence')).score).toBeLessThan(0.5);
  });

  it('splits sentences and lines', () => {
    expect(splitSentences('One. Two!\nThree', 'en').map((s) => s.text.trim())).toEqual([
      'One.',
      'Two!',
      'Three',
    ]);
  });
});

describe('scoring rules', () => {
  it('scores a graphic description (violence.graphic) 0.7 alone, damped by a report, a negation and play', async () => {
    // "guts spilled out" is graphic evidence and nothing else: no violent verb adds to it.
    const alone = await scoreTextDetailed('His guts spilled out onto the floor.', 'violence');
    expect(alone.evidence.map((e) => e.rule)).toEqual(['violenceGraphic']);
    // The lexicons' own score (the n-gram model may raise the answer above it).
    expect(alone.lexiconScore).toBe(calibrate(TEXT_WEIGHTS.violenceGraphic));
    expect(alone.score).toBeGreaterThanOrEqual(0.5);
    const reported = await scoreTextDetailed('His guts spilled out onto the floor, police said.', 'violence');
    expect(reported.evidence[0]!.reporting).toBe(true);
    expect(reported.score).toBe(calibrate(TEXT_WEIGHTS.violenceGraphic * TEXT_DAMPING.reporting));
    expect(reported.score).toBeLessThan(0.5);
    const negated = await scoreTextDetailed(
      'I have never seen his guts spilled out onto the floor.',
      'violence',
    );
    expect(negated.evidence[0]!.negated).toBe(true);
    expect(negated.score).toBe(calibrate(TEXT_WEIGHTS.violenceGraphic * TEXT_DAMPING.negated));
    const play = await scoreTextDetailed('In Fortnite his guts spilled out onto the floor.', 'violence');
    expect(play.evidence[0]!.play).toBe(true);
    expect(play.score).toBe(calibrate(TEXT_WEIGHTS.violenceGraphic * TEXT_DAMPING.play));
  });

  it('reads a depiction of a person being hurt, not of an animal, a zombie or a contest', async () => {
    const graphic = async (text: string) =>
      (await scoreTextDetailed(text, 'violence')).evidence.some((e) => e.rule === 'violenceGraphic');
    expect(await graphic('a child being strangled')).toBe(true);
    expect(await graphic('draw a soldier shooting a prisoner in the head')).toBe(true);
    expect(await graphic('a man stabbing his neighbour to death, blood everywhere')).toBe(true);
    expect(await graphic('a lion killing a zebra, blood everywhere')).toBe(false);
    expect(await graphic('a man shooting zombies, blood everywhere')).toBe(false);
    expect(await graphic('a man beating his friend at chess')).toBe(false);
    expect(await graphic('a photographer shooting a woman on the beach for a magazine')).toBe(false);
  });

  it('scores clean text 0.01, like an ordinary photo', async () => {
    expect((await scoreTextDetailed('We had a lovely picnic in the park.', 'violence')).score).toBe(0.01);
    expect(calibrate(0)).toBe(0.01);
    expect(calibrate(1)).toBe(0.99);
  });

  it('damps negated threats', async () => {
    const threat = await scoreTextDetailed('I will kill you.', 'violence');
    const negated = await scoreTextDetailed('I will never kill you.', 'violence');
    expect(threat.score).toBeGreaterThanOrEqual(0.5);
    expect(negated.score).toBeLessThan(0.5);
    expect(negated.evidence[0]!.negated).toBe(true);
  });

  it("does not let another language's negation word negate where it is an ordinary word", async () => {
    // Read by every Latin lexicon: English and Spanish "no" is Portuguese "in the", French "ne" Italian "of it".
    const pt = await scoreTextDetailed('Te pego no beco e te mato.', 'violence');
    expect(pt.score).toBeGreaterThanOrEqual(0.5);
    expect(pt.evidence.find((e) => e.lang === 'pt')!.negated).toBe(false);
    expect((await scoreTextDetailed('Me ne frego, ti ammazzo.', 'violence')).score).toBeGreaterThanOrEqual(
      0.5,
    );
    // The reading language's own negation still counts.
    expect((await scoreTextDetailed('Eu nunca te mato.', 'violence')).score).toBeLessThan(0.5);
  });

  it('splits sentences before lower-casing, and carries a quotation over a sentence end', async () => {
    // ICU starts a sentence only at a capital letter: the report in the first sentence damps only it.
    const two = await scoreTextDetailed('Police said the man left. I will kill you.', 'violence');
    expect(two.score).toBeGreaterThanOrEqual(0.5);
    expect(two.evidence.find((e) => e.term === 'kill you')!.reporting).toBe(false);
    const quoted = await scoreTextDetailed(
      'He wrote to her: "I will find you. I will kill you." She called the hotline.',
      'violence',
    );
    expect(quoted.score).toBeLessThan(0.5);
    expect(quoted.evidence.every((e) => e.quoted)).toBe(true);
  });

  it('does not let a negation reach across a clause end', async () => {
    // "pas" after the comma negates "prise de tête", not the offer before it.
    const fr = await scoreTextDetailed('H 40 ans cherche plan cul ce soir, pas de prise de tête.', 'nsfw');
    expect(fr.score).toBeGreaterThanOrEqual(0.5);
    expect(fr.evidence.find((e) => e.term === 'plan cul')!.negated).toBe(false);
    // German negates after the verb: in the same clause it still counts.
    expect((await scoreTextDetailed('Ich bringe dich nicht um.', 'violence')).score).toBeLessThan(0.5);
    expect((await scoreTextDetailed('No, I will never hurt you.', 'violence')).score).toBeLessThan(0.5);
  });

  it('lets a negation reach into a subordinate clause its language opens after a comma (negation.into)', async () => {
    const wish = 'Я хочу, чтобы ты умер.';
    expect((await scoreTextDetailed(wish, 'violence')).score).toBeGreaterThanOrEqual(0.5);
    // "I don't want you to die": ru writes a comma before чтобы, and the не belongs to the whole.
    const care = await scoreTextDetailed('Я не хочу, чтобы ты умер, лечись.', 'violence');
    expect(care.score).toBeLessThan(0.5);
    expect(care.evidence.every((e) => e.negated)).toBe(true);
    // Any other clause end still stops it.
    const split = await scoreTextDetailed('Я не знаю. Я хочу, чтобы ты умер.', 'violence');
    expect(split.score).toBeGreaterThanOrEqual(0.5);
  });

  it('stops a negation after the match at a result clause opened without a comma (negation.closeAfter)', async () => {
    // nl writes no comma before zodat: "nooit" belongs to "so that he would never talk again".
    const result = await scoreTextDetailed(
      'Ze sloegen hem in elkaar zodat hij nooit meer zou praten.',
      'violence',
    );
    expect(result.score).toBeGreaterThanOrEqual(0.5);
    expect(result.evidence.every((e) => !e.negated)).toBe(true);
    // Without one, a negation after the verb still negates, as Dutch negates there.
    const never = await scoreTextDetailed('Ik sla hem nooit meer in elkaar, dat beloof ik.', 'violence');
    expect(never.score).toBeLessThan(0.5);
    expect(never.evidence.every((e) => e.negated)).toBe(true);
  });

  it('lets a refutation after a claim deny it across clause ends (negation.refute)', async () => {
    expect((await scoreTextDetailed('Женщины тупее мужчин.', 'hate')).score).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed('Женщины тупее мужчин, это факт.', 'hate')).score).toBeGreaterThanOrEqual(
      0.5,
    );
    const myth = await scoreTextDetailed('Женщины тупее мужчин — это миф, опровергнутый наукой.', 'hate');
    expect(myth.score).toBeLessThan(0.5);
    // In Chinese too (a window of characters), unless the refutation is itself denied.
    expect((await scoreTextDetailed('河南人都是骗子。', 'hate')).score).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed('河南人都是骗子，这是地域歧视。', 'hate')).score).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('河南人都是骗子，我说的不是偏见，是事实。', 'hate')).score,
    ).toBeGreaterThanOrEqual(0.5);
  });

  it('reads "they" at the start of a sentence as the group named just before (hate.anaphora)', async () => {
    await expectFlagged(
      [
        'Look at the migrants in our street. They are all thieves.',
        'Regardez les immigrés du quartier. Ils sont tous des voleurs.',
        'Посмотри на этих мигрантов. Они все воры.',
        '看看那些穆斯林。他们都是恐怖分子。',
        '移民が増えた。あいつらは全員犯罪者だ。',
        '이민자들이 늘었다. 그들은 다 범죄자다.',
        // The subject left out: the group goes before the verb.
        'Mira a los gitanos del barrio. Son todos ladrones.',
        '看看那些穆斯林。都是恐怖分子。',
      ],
      'hate',
    );
    await expectNotFlagged(
      [
        'Look at the migrants in our street. They are all exhausted after the journey.',
        // No group before "they" (Mexican food names no people), or no claim after it.
        'The burglars were caught. They are all thieves.',
        'Migrants arrived yesterday. They were all welcomed by volunteers.',
        'Llegaron los refugiados sirios. Son las diez de la noche.',
      ],
      'hate',
    );
    await expectNotFlagged(['I love Mexican food. They are all thieves.'], 'hate');
  });

  it('lets a sentence that opens with a refutation deny the hateful claim before it', async () => {
    await expectNotFlagged(
      [
        'Women are too dumb to lead. That is a sexist myth.',
        'Frauen sind zu dumm zum Führen. Das ist ein Mythos.',
        "Les immigrés sont tous des voleurs. C'est faux, bien sûr.",
        'Los gitanos son todos ladrones. Eso es un mito racista.',
        'Женщины тупее мужчин. Это миф.',
        // A claim asked back as a question, then dismissed.
        'Frauen sollen gehorchen? So ein Unsinn.',
        'As mulheres têm que ficar em casa? Isso é coisa do passado.',
      ],
      'hate',
    );
    // Not when the next sentence agrees, asks, or uses the words for something else.
    await expectFlagged(
      [
        'Migrants are all criminals. That is what I think.',
        "Migrants are all criminals. And that's a fact, not a myth.",
        'Migrants are all criminals. Is it a myth? No way.',
        "Les Arabes sont tous des voleurs. C'est un crime de le nier.",
      ],
      'hate',
    );
  });

  it('reads a suggestion asked as a question as not negated (negation.rhetorical)', async () => {
    for (const text of [
      "Why don't we just deport all the Muslims?",
      'Wieso schiebt man die Ausländer nicht endlich alle ab?',
      'Почему бы не выгнать всех мигрантов из страны?',
      'لماذا لا نطرد كل اللاجئين من البلد؟',
      '移民なんて全員追い出そうじゃないか。',
      '왜 이민자들 다 쫓아내지 않아?',
    ]) {
      const found = await scoreTextDetailed(text, 'hate');
      expect(found.score, text).toBeGreaterThanOrEqual(0.5);
      expect(
        found.evidence.some((e) => e.negated),
        text,
      ).toBe(false);
    }
    // A plain negation still negates; a question that asks why a claim is false still denies it.
    await expectNotFlagged(
      [
        "We don't want to deport the Muslims.",
        "Why don't Muslims eat pork?",
        '¿Por qué no todos los inmigrantes son delincuentes?',
      ],
      'hate',
    );
  });

  it('reads a question that asks for someone, or for agreement, as not negated (negation.rhetorical)', async () => {
    await expectFlagged(['有没有妹子想裸聊？私信我。'], 'nsfw');
    const asked = await scoreTextDetailed('エロイプできる女の子いない？全裸で待ってる。', 'nsfw');
    expect(asked.evidence.length).toBeGreaterThan(0);
    expect(asked.evidence.some((e) => e.negated)).toBe(false);
    await expectFlagged(['조선족들은 다 범죄자 아니냐?'], 'hate');
    await expectNotFlagged(['我从来没有裸聊过，也不想。'], 'nsfw');
    await expectNotFlagged(['조선족들이 다 범죄자는 아니다.'], 'hate');
  });

  it('lets a negation that belongs to its own phrase negate nothing else (negation.local)', async () => {
    await expectFlagged(['Como vuelvas a entrar sin avisar te rajo la cara.'], 'violence');
    await expectNotFlagged(['No te voy a rajar la cara, tranquilo.'], 'violence');
  });

  it('damps a negated slur only where the sentence talks about the word', async () => {
    const slur = await scoreTextDetailed("Don't rent your flat to pakis.", 'hate');
    expect(slur.score).toBeGreaterThanOrEqual(0.5);
    expect(slur.evidence.find((e) => e.rule === 'hateSlur')!.negated).toBe(false);
    expect(
      (await scoreTextDetailed('Keine Kanaken in unserem Verein!', 'hate')).score,
    ).toBeGreaterThanOrEqual(0.5);
    // "We don't say X": negation beside a word about words (say, call, the word, offensive).
    const said = await scoreTextDetailed('Man sagt nicht mehr Zigeuner, sondern Sinti und Roma.', 'hate');
    expect(said.score).toBeLessThan(0.5);
    expect(said.evidence.every((e) => e.negated)).toBe(true);
    expect((await scoreTextDetailed('No se dice sudaca, es despectivo.', 'hate')).score).toBeLessThan(0.5);
    // A report or a quotation of one still damps it, also when the term starts before the quotation.
    expect(
      (await scoreTextDetailed("Traiter quelqu'un de « pédé » n'est pas une blague.", 'hate')).score,
    ).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('The court said the word "pakis" was used twice.', 'hate')).score,
    ).toBeLessThan(0.5);
  });

  it('damps quotations and reports', async () => {
    const quoted = await scoreTextDetailed(
      'The song is called "I will kill you" and it is about a breakup.',
      'violence',
    );
    expect(quoted.score).toBeLessThan(0.5);
    expect(quoted.evidence.some((e) => e.quoted)).toBe(true);
    // Single quotation marks too.
    const single = await scoreTextDetailed(
      "El árbitro contó que un aficionado le gritó 'te voy a matar' desde la grada.",
      'violence',
    );
    expect(single.score).toBeLessThan(0.5);
    expect(single.evidence.filter((e) => e.rule === 'violenceIncitement').every((e) => e.quoted)).toBe(true);
    const reported = await scoreTextDetailed(
      'Police said the suspect shouted that he would kill them all.',
      'violence',
    );
    expect(reported.score).toBeLessThan(0.5);
    expect(reported.evidence.every((e) => e.reporting)).toBe(true);
  });

  it('needs intent for a violent verb to flag', async () => {
    expect((await scoreTextDetailed('The storm killed three people.', 'violence')).score).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('I am going to shoot him tomorrow.', 'violence')).score,
    ).toBeGreaterThanOrEqual(0.5);
  });

  it('flags weak evidence of both readers together, from a model probability of 0.7 (JOINT)', async () => {
    const veiled = await scoreTextDetailed(
      // The model's reading moves with each retraining; the sentence is chosen to sit between 0.7 and
      // its threshold, and the expectations below say so when it no longer does.
      'Nice shop you have. It would be a pity if the glass got broken one night.',
      'violence',
    );
    expect(veiled.lexiconScore).toBeGreaterThanOrEqual(JOINT.lexicon);
    expect(veiled.lexiconScore).toBeLessThan(0.5);
    expect(veiled.model.probability).toBeGreaterThanOrEqual(JOINT.probability);
    expect(veiled.model.probability).toBeLessThan(veiled.model.threshold);
    expect(veiled.score).toBe(JOINT.score);
    // A dehumanising word alone does not count: it needs a group named beside it.
    const alone = await scoreTextDetailed('Those parasites ruined my garden.', 'hate');
    expect(alone.evidence.map((e) => e.rule)).toEqual(['hateDehumanizing']);
    expect(alone.score).toBe(alone.lexiconScore);
  });

  it('needs a protected group for a dehumanising word to flag', async () => {
    expect((await scoreTextDetailed('Those parasites ruined my garden.', 'hate')).score).toBeLessThan(0.5);
    expect((await scoreTextDetailed('Jews are parasites.', 'hate')).score).toBeGreaterThanOrEqual(0.5);
  });

  it('flags a veiled threat only when two of its cues meet', async () => {
    const one = await scoreTextDetailed('Watch your back posture when you lift boxes.', 'violence');
    expect(one.score).toBeLessThan(0.5);
    expect(one.evidence.map((e) => e.rule)).toEqual(['violenceVeiled']);
    const two = await scoreTextDetailed('Watch your back on your way home tonight.', 'violence');
    expect(two.score).toBeGreaterThanOrEqual(0.5);
    expect(two.evidence.filter((e) => e.rule === 'violenceVeiled' && e.lang === 'en')).toHaveLength(2);
  });

  it('counts weak threat cues with veiled ones, over two neighbouring sentences', async () => {
    const violence = (text: string) => scoreTextDetailed(text, 'violence');
    // A weak cue alone, or two, stay ordinary.
    expect((await violence('Think about it and tell me by Friday.')).score).toBeLessThan(0.5);
    const pair = await violence('Keep talking and think about it.');
    expect(pair.score).toBeLessThan(0.5);
    expect(pair.evidence.filter((e) => e.lang === 'en').map((e) => e.rule)).toEqual([
      'violenceCue',
      'violenceCue',
    ]);
    // A veiled cue alone stays ordinary for the lexicons (the n-gram model flags this one); with a
    // weak cue in the next sentence it flags.
    await expectLexiconsOnlyNotFlag(['I know where your wife works.'], 'violence');
    expect(
      (await violence('I know where your wife works. Think about that before you call the police.')).score,
    ).toBeGreaterThanOrEqual(0.5);
    // Only neighbours count: a sentence in between breaks the pair.
    expect(
      (
        await violence(
          'I know where your wife works. She sells bread on the corner and the bread is very good there. Think about that offer and tell me.',
        )
      ).score,
    ).toBeLessThan(0.5);
    expect(TEXT_WEIGHTS.violenceCue).toBeLessThan(TEXT_WEIGHTS.violenceVeiled);
  });

  it('damps violence in or next to a sentence about a workout or a game', async () => {
    const gym = await scoreTextDetailed(
      "Leg day today. I'm going to make you suffer: 100 squats.",
      'violence',
    );
    expect(gym.score).toBeLessThan(0.5);
    expect(gym.evidence.some((e) => e.play === true)).toBe(true);
    expect(
      (await scoreTextDetailed("I'm going to make you suffer when I find you.", 'violence')).score,
    ).toBeGreaterThanOrEqual(0.5);
    expect(
      (await scoreTextDetailed('Warte nur, in der nächsten Runde bist du tot, haha.', 'violence')).score,
    ).toBeLessThan(0.5);
  });

  it('drops a violent word inside an ordinary phrase of the benign list, also when the object comes first', async () => {
    expect(
      (await scoreTextDetailed('Wir sollten in der Kirche Kerzen anzünden.', 'violence')).score,
    ).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('Wir sollten das Asylheim anzünden.', 'violence')).score,
    ).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed("Let's kill time at the station.", 'violence')).score).toBeLessThan(0.5);
  });

  it("lets any candidate language's ordinary phrase excuse a match of another Latin lexicon", async () => {
    // A short Italian text is also read by the French, Spanish, German and Dutch lexicons, whose
    // masturb* is explicit; the Italian benign phrase about sex education now excuses them all.
    const text = 'La masturbazione è normale, spiega il medico.';
    expect((await scoreTextDetailed(text, 'nsfw')).score, text).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('Je veux te voir te masturber ce soir.', 'nsfw')).score,
    ).toBeGreaterThanOrEqual(0.5);
  });

  it('lets an ordinary phrase drop only the matches it overlaps, not a shorter one beside it', async () => {
    // pt "bateu a cabeça" (hit his head) is ordinary: it drops the match running through it, while the
    // blow before it ("levou um tapa tão forte que") still counts.
    const slap = await scoreTextDetailed(
      'Ele levou um tapa tão forte que bateu a cabeça na parede.',
      'violence',
    );
    expect(slap.score).toBeGreaterThanOrEqual(0.5);
    expect(slap.evidence.map((e) => e.term)).toEqual(['{gdar} ~1 {gnountapa} {gtanto} que']);
    expect(
      (await scoreTextDetailed('Ele bateu a cabeça na porta do armário.', 'violence')).score,
    ).toBeLessThan(0.5);
  });

  it('does not read an ordinary word that shares a violent stem as a violent act (wildcardExceptions)', async () => {
    // Each of these was a threat at 0.84: a first person ("I will", "je vais", "voglio") made the
    // stem's match one.
    const ordinary = [
      'I will clean the stable tomorrow.',
      // The same stems in a class (gact): a stable with blood in it is not a stabbing.
      'The mare gave birth in the stable and there was blood everywhere.',
      'We should keep the prices stable.',
      'I will meet the executive director tomorrow.',
      "I'm going to listen to the Beatles tonight.",
      'I will tell you the punchline later.',
      'We should plant rapeseed this spring.',
      "Je vais parler de la violence à l'école.",
      'Je vais acheter des violettes pour ma mère.',
      'Je vais vous montrer un exemple frappant.',
      'Voglio comprare uno scanner nuovo.',
      'Ich will verletzlich sein dürfen.',
      'Ik wil de verbrandingsmotor uitleggen.',
      'Demain je vais avoir une journée massacrante.',
      'Voglio evitare altri impicci con il vicino.',
      'Ich will diese Saison verletzungsfrei bleiben.',
      'Ik ga zaterdag naar de schietclub.',
      'Ich will einen Abstecher nach Rom machen.',
      'Ich will wissen, wie viel Niederschlag morgen fällt.',
      'Хочу задушевно поговорить с тобой.',
    ];
    for (const text of ordinary)
      expect((await scoreTextDetailed(text, 'violence')).score, text).toBeLessThan(0.5);
    // Slurs and sexual words too: "a chink of light", "kaffir lime", "niggardly", "striped".
    await expectNotFlagged(
      [
        'A chink of light came through the curtains.',
        'I bought kaffir lime leaves for the curry.',
        'He was niggardly with praise.',
        'Ik ga die opmerking gewoon negeren.', // nl negeren: to ignore
        'Хочу сделать педикюр в субботу.', // a pedicure
        'Die Schleiereule jagt nachts Mäuse.', // the barn owl
        'Mein Sohn hat eine Spastik im linken Bein.',
      ],
      'hate',
    );
    expect((await scoreTextDetailed('The striped shirt has blue stripes.', 'nsfw')).score).toBeLessThan(0.5);
    expect((await scoreTextDetailed('Those kaffirs should leave.', 'hate')).score).toBeGreaterThanOrEqual(
      0.5,
    );
    // The verbs themselves still read.
    for (const threat of [
      'I will stab him tomorrow.',
      'Je vais la violer.',
      'Je vais te frapper.',
      'Ich werde dich verletzen.',
      'Ik ga je huis verbranden.',
    ])
      expect((await scoreTextDetailed(threat, 'violence')).score, threat).toBeGreaterThanOrEqual(0.5);
  });

  it('excepts a word from every wildcard when any of its forms is an exception (Arabic proclitics)', () => {
    // بلوطي (oaken) reads as ب + لوطي once its first letter is taken for a proclitic: the exception
    // names the whole word, and the stripped form must not escape it.
    const except = compileWildcardExceptions(['بلوطي*'], 'ar');
    const terms = compileTerms(['لوطي*'], 'ar', {}, except);
    expect(findTerms(prepareSentence(normalize('خشب البلوطي قوي', 'ar'), 'ar'), terms)).toHaveLength(0);
    expect(findTerms(prepareSentence(normalize('انت لوطي', 'ar'), 'ar'), terms)).toHaveLength(1);
  });

  it('reads a katakana term only where a katakana word starts (カフェラテ holds no フェラ)', () => {
    const terms = compileTerms(['フェラ', 'チョン', 'ポルノ'], 'ja');
    const found = (text: string) =>
      findTerms(prepareSentence(normalize(text, 'ja'), 'ja'), terms).map((m) => m.term);
    expect(found('カフェラテを飲みたい')).toEqual([]);
    expect(found('ランチョンマットとクエスチョンマーク')).toEqual([]);
    // A katakana word may go on after the term (ポルノサイト), and kanji or kana may stand before it.
    expect(found('ポルノサイトを見た')).toEqual(['ポルノ']);
    expect(found('あいつはチョンだ')).toEqual(['チョン']);
    expect(found('フェラチオして')).toEqual(['フェラ']);
    // A two-letter katakana term is a whole katakana word; a Latin term a whole Latin word.
    const short = compileTerms(['グロ', 'xxx', 'sm'], 'ja');
    const inShort = (text: string) =>
      findTerms(prepareSentence(normalize(text, 'ja'), 'ja'), short).map((m) => m.term);
    expect(inShort('グローバル変数とaic7xxxとjssmag、xxxlサイズとsmtpサーバー')).toEqual([]);
    expect(inShort('グロ画像とxxx動画とsmプレイ')).toEqual(['グロ', 'xxx', 'sm']);
  });

  it('counts a commercial-sex cue with a sexual word or another cue of the next sentence, not two sexual words', async () => {
    // Each sentence alone stays ordinary; the two together are an offer.
    await expectNotFlagged(['房费我出', 'Discreet meetings only.'], 'nsfw');
    await expectLexiconsOnlyNotFlag(['今晚出来开房吗？', 'Sexy girl here.'], 'nsfw');
    await expectFlagged(['今晚出来开房吗？房费我出', 'Sexy girl here. Discreet meetings only.'], 'nsfw');
    // Only neighbours count: a sentence in between breaks the pair.
    await expectNotFlagged(['今晚出来开房吗？我们去吃火锅吧，那家店很好吃。房费我出'], 'nsfw');
    // The same sexual word twice, in a saying about sex, is not an offer.
    await expectNotFlagged(['Il sesso non è la risposta. Il sesso è la domanda.'], 'nsfw');
  });

  it('ends a clause at the Arabic comma, so a negation before it does not reach past it', async () => {
    // "The disabled must not have children, sterilise them all": the ما of the first clause negated
    // the order of the second when "،" was not read as a comma.
    await expectFlagged(['المعاقين ما لازم يخلفوا، عقموهم كلهم'], 'hate');
    const tokens = prepareSentence(normalize('ما لازم يخلفوا، عقموهم', 'ar'), 'ar').tokens;
    expect(tokens.map((t) => t.clauseEnd)).toEqual([false, false, true, true]);
  });

  it('lets an ordinary phrase excuse an exclusion word and a commercial-sex cue too', async () => {
    await expectNotFlagged(['Many Mexicans go back to their families at Christmas.'], 'hate');
    await expectFlagged(['Mexicans should go back to their countries.'], 'hate');
    const cues = async (text: string) =>
      (await scoreTextDetailed(text, 'nsfw')).evidence.filter((e) => e.rule === 'nsfwCue').map((e) => e.term);
    expect(await cues('Full service car wash, open late.')).toEqual([]);
    expect(await cues('Full service, open late.')).toContain('full service');
  });

  it('damps a question about what a phrase means, like a report', async () => {
    await expectNotFlagged(
      [
        '하룻밤에 두 명 먹었다는 게 무슨 뜻이야?',
        '一晚上搞了三个妹子是什么意思？',
        '一晩で二人食ったってどういう意味？',
        'Was bedeutet es, wenn einer sagt, er hat zwei Weiber in einer Nacht flachgelegt?',
      ],
      'nsfw',
    );
    await expectFlagged(['하룻밤에 두 명 먹었다', '一晚上搞了三个妹子', '一晩で二人食った'], 'nsfw');
    // A question before a threat is its own sentence and damps nothing.
    await expectFlagged(['你什么意思？我弄死你', 'Que veut dire ce message ? Je vais te tuer.'], 'violence');
  });

  it('counts a repeated weak nsfw cue or listed word once (a placeholder xxx, kisses)', async () => {
    await expectNotFlagged(
      [
        'Um xxx especifica o caracter octal xxx.',
        'Eine Sitzung beginnt mit dem Sektor xxx und endet mit xxx.',
        'Thanks for dinner, see you tomorrow xxx',
        '最初の xxx は xxx.gz に保存する。',
        'ipaddr は xxx.xxx.xxx.xxx という形式で指定する。',
        'Setzen Sie xxx, xxx und xxx auf null.',
      ],
      'nsfw',
    );
    expect((await scoreTextDetailed('Watch free xxx porn videos here', 'nsfw')).score).toBeGreaterThanOrEqual(
      0.5,
    );
  });

  it('reads a violent word after an article or a possessive as a noun, which intent does not make a threat (violence.nounAfter, violence.nouns)', async () => {
    const ordinary = [
      'I want to tell you about my panic attack last week.',
      'We should learn the warning signs of a heart attack.',
      "I'll take a stab at the crossword later.",
      'I will order a shot of espresso.',
      'I want to learn to dance to the beat.',
      'I will read a book about the murder of Julius Caesar.',
      'Voglio vedere un documentario sul massacro.',
      // A noun of the act that the verb's stem also reads (violence.nouns).
      'Quiero leer un libro sobre el asesinato de Kennedy.',
      "Je veux lire un livre sur l'assassinat de Kennedy.",
      'We moeten praten over de schietpartij.',
    ];
    for (const text of ordinary) {
      const d = await scoreTextDetailed(text, 'violence');
      expect(d.score, text).toBeLessThan(0.5);
      expect(
        d.evidence.some((e) => e.rule === 'violenceThreat'),
        text,
      ).toBe(false);
    }
    // Still a violent word alone (0.2), as in a report without intent.
    const noun = await scoreTextDetailed('I will read a book about the murder of Julius Caesar.', 'violence');
    expect(noun.evidence.map((e) => e.rule)).toEqual(['violenceVerb']);
    // The act itself, and the noun with its verb, still read as threats.
    for (const threat of [
      "I'll attack you the moment you walk out.",
      "I'll give you a beating you won't forget.",
      "I'm going to commit a murder tonight.",
      'I will watch her burn.',
      'Te voy a asesinar.',
      "Je vais t'assassiner.",
    ])
      expect((await scoreTextDetailed(threat, 'violence')).score, threat).toBeGreaterThanOrEqual(0.5);
  });

  it('does not let the intent govern a past form or a verb in a relative clause (violence.finite, violence.relative)', async () => {
    await expectViolentWordOnly([
      'I want to know who killed my dog.', // finite, and relative
      'I will testify that he punched her.', // finite: a past form
      'We should teach kids what to do if someone attacks them.', // finite: a third person
      'Je veux savoir qui a tué mon chien.', // relative
      'Quiero saber quién mató a mi perro.',
      'Ich will wissen, wer meinen Hund getötet hat.',
      'Wir müssen den Opfern helfen, die im Krieg vergewaltigt wurden.', // relativeAfterComma
      'Мы должны помочь жертвам, которых изнасиловали на войне.',
      'I want to tell you that Agassi beat Becker in the final.', // that, then a third person
    ]);
    await expectFlagged(
      [
        'I will find out who did this and kill him.', // a coordinator hands the verb back
        "I'm going to find the guy who hurt my sister and break his legs.",
        'He deserves to be beaten.', // be + a past form
        "I'll have you killed.", // an object + a past form
        "I'll make sure that you get hurt.", // that, then the reader
        "I'll make sure the guy who did this gets shot.", // a passive right before the verb
        'Je vais trouver celui qui a fait ça et je vais le tuer.',
      ],
      'violence',
    );
  });

  it('ends a Chinese or Japanese clause at its punctuation, so a negation before a comma does not reach a threat after it', async () => {
    await expectFlagged(['不，我要杀了你。', '欠钱不还，就把你手指一根一根剁下来。'], 'violence');
    await expectNotFlagged(['我不会杀你的。', 'お前を殺したりしない。'], 'violence');
  });

  it('does not damp as play a match word that names a time or a place (violence.notPlay)', async () => {
    await expectFlagged(
      ['После матча встречаем их фанатов у вокзала и ломаем им ноги, берите биты.'],
      'violence',
    );
    // A game is still play.
    await expectNotFlagged(
      ['In the game we smash their heads in with a bat, it is so satisfying.'],
      'violence',
    );
  });

  it("lets a notPlay phrase of one candidate language release another language's play word", async () => {
    // es reads "al árbitro" as a target named (es notPlay); it reads "arbitro" as a word of play. The
    // sentence is short, so both lexicons read it.
    const referee = await scoreTextDetailed('Al árbitro de hoy hay que partirle las piernas', 'violence');
    expect(referee.evidence.length).toBeGreaterThan(0);
    expect(referee.evidence.some((e) => e.play === true)).toBe(false);
    expect(referee.score).toBeGreaterThanOrEqual(0.5);
    // A play word that no phrase holds still damps: the same threat about a video game.
    const game = await scoreTextDetailed('En el FIFA hay que partirle las piernas', 'violence');
    expect(game.evidence.some((e) => e.play === true)).toBe(true);
  });

  it('excuses clinical words near a frame of sex education or sexual medicine (lexicons/clinical.ts)', async () => {
    await expectNotFlagged(
      [
        'Sex education should teach that masturbation is normal and healthy.',
        'La educación sexual debe explicar la masturbación y el orgasmo como algo normal.',
        'Sexualkunde in der Schule: Masturbation ist normal und gesund, erklärt die Ärztin.',
        'Seksuele voorlichting op school: masturberen is normaal, zegt de huisarts.',
        '性教育の授業で、自慰行為は健康的で普通のことだと教わった。',
        '性教育课上老师说，自慰是正常的生理现象。',
        '성교육 시간에 자위는 정상적인 행동이라고 배웠다.',
        'التثقيف الجنسي في المدارس يحمي المراهقين من الاستغلال والأمراض المنقولة جنسيا',
      ],
      'nsfw',
    );
    // Without the frame the same word is evidence; with it, an explicit phrase, a word far from the
    // frame and a condom (no frame) still count.
    await expectFlagged(
      [
        'I taught her that masturbation is normal, now she sends me videos of it',
        'sex ed was boring today, I would rather you suck my cock in the back row',
        'My gynecologist is hot, I want her to finger me until I orgasm on the table',
        '成人影片里她高潮了三次，超刺激，避孕套都没戴',
      ],
      'nsfw',
    );
  });

  it("lets a negation.local phrase of one candidate language keep every language's negation word out", async () => {
    // es "si no pagan" is a condition (es negation.local); the other Latin lexicons read "no" as a
    // negation of the threat after it, unless the phrase counts for them too.
    const wages = await scoreTextDetailed(
      'si no pagan los sueldos vendré con una escopeta recortada',
      'violence',
    );
    expect(wages.evidence.some((e) => e.negated)).toBe(false);
    expect(wages.score).toBeGreaterThanOrEqual(0.5);
    await expectNotFlagged(['no vendré con una escopeta, tranquilo'], 'violence');
  });

  it('reads zh 不是精神病, a denial, as no claim that a group is mentally ill (hate.benign)', async () => {
    // The lexicons no longer flag it; the n-gram model still does (0.93), until a retraining learns
    // the denial, and this test then says to move it to expectNotFlagged.
    await expectLexiconsOnlyNotFlag(['跨性别者就是跨性别者，不是精神病'], 'hate');
    await expectFlagged(['跨性别者都是精神病，应该关起来'], 'hate');
  });

  it('reads a slur with letters masked by asterisks as the slur it spells', async () => {
    await expectFlagged(
      ['Get these n*ggers out of our neighbourhood.', 'Diese K*naken sollen abhauen.'],
      'hate',
    );
    // A masked word that spells no slur, and a star rating, are left alone.
    await expectNotFlagged(
      ['What the f*ck is this sh*t, my c*t knocked the vase over.', 'Rate this 5* hotel: great*'],
      'hate',
    );
  });

  it('reads the antisemitic echo (((...))) as the word for the Jews, for the group rules (hate.echo)', async () => {
    await expectFlagged(
      [
        '(((Sie))) kontrollieren die Banken und die Medien.',
        '(((Zij))) hebben de banken en de media in handen.',
        '(((Они))) контролируют банки и СМИ.',
        '(((他们)))控制着银行和媒体。',
        '(((彼ら)))が銀行とメディアを支配している',
      ],
      'hate',
    );
    // Alone it names a group and says nothing of it; brackets in code are no echo.
    await expectNotFlagged(
      ['Ich schicke dir (((Umarmungen))) und gute Besserung!', 'Die Funktion f(((x))) ist stetig.'],
      'hate',
    );
    await expectNotFlagged(['Sie kontrollieren die Banken und die Medien.'], 'hate');
  });

  it('reads a participle in a perfect tense, and a preterite, as past: no threat (violence.participles, violence.perfect)', async () => {
    // perfect: a before the participle (the n-gram model reads "je veux … tué" as a threat)
    await expectNotFlagged(["Je veux dire qu'il l'a tué."], 'violence');
    await expectViolentWordOnly([
      'Voglio parlarti del libro che racconta come hanno ucciso Cesare.', // hanno ucciso
      'Ik wil de mensen helpen die tijdens de oorlog zijn verkracht.', // zijn before
      'Ich will erzählen, wie sie ihn erschossen haben.', // perfectAfter: verb-final
      'Quiero contarte cómo han asesinado a mi abuelo.', // han asesinado
      'Quiero saber por qué lo mataron.', // finite: a preterite plural
      'Quero contar como mataram o meu avô.', // finite
      'Я хочу рассказать, как его убили.', // finite: a past form
    ]);
    // The same participles without the auxiliary, and past forms that a wish governs, stay threats.
    await expectFlagged(
      [
        'Je te tue si tu reviens.', // tue: a present
        'Ik vermoord je als je terugkomt.',
        'Ze moeten allemaal vermoord worden.', // worden is no perfect
        'Ich will, dass er erschossen wird.', // wird is no perfect
        'Voglio che venga ucciso.',
        'Хочу, чтоб тебя убили.', // чтоб makes the past form a wish (violence.passive)
      ],
      'violence',
    );
  });

  it('does not read ordinary CJK and Arabic words that hold a violent, sexual or slur word as one (dictionary audit)', async () => {
    const cases: Array<[string, 'violence' | 'nsfw' | 'hate']> = [
      ['对不起，我想打断你一下。', 'violence'], // interrupt
      ['我要砍价，太贵了。', 'violence'], // haggle
      ['我们应该保护孩子免受伤害。', 'violence'],
      ['我在动物园看到了黑猩猩。', 'hate'],
      ['我每回回家都给妈妈带礼物。', 'hate'],
      ['印度支那半岛位于亚洲东南部。', 'hate'],
      ['白色情人节快乐！', 'nsfw'], // White Day
      ['熊本で馬刺しを食べたいです。', 'violence'], // horse sashimi
      ['政治家を風刺したい漫画家だ。', 'violence'], // satire
      ['週末はぱちんこに行くつもりだ。', 'nsfw'],
      ['土人形を博物館で見た。', 'hate'], // a clay doll
      ['나 다음 달에 회사 때려치울 거야.', 'violence'], // quit a job
      ['처형이 이번 주말에 놀러 올 거야.', 'violence'], // a sister-in-law
      ['그는 우리 회사의 법률 고문이 될 거야.', 'violence'], // an adviser
      ['일본 자위대가 훈련을 했다.', 'nsfw'], // the Self-Defense Forces
      ['سوف نقتلع الأشجار القديمة من الحديقة.', 'violence'], // uproot
      ['أريد أن أعرف أعراض الذبحة الصدرية.', 'violence'], // angina
      ['أريد أن آكل الكسكس المغربي.', 'nsfw'], // couscous
    ];
    for (const [text, policy] of cases)
      expect((await scoreTextDetailed(text, policy)).score, text).toBeLessThan(0.5);
    for (const [text, policy] of [
      ['我要打断他的腿。', 'violence'],
      ['那些新疆人都是蝗虫。', 'hate'],
      ['チョンは国に帰れ。', 'hate'],
      ['너를 고문할 거야.', 'violence'],
      ['너를 처형할 거야.', 'violence'],
    ] as const)
      expect((await scoreTextDetailed(text, policy)).score, text).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps a reporting word that is part of the threat from damping it', async () => {
    const threat = await scoreTextDetailed(
      'Ich weiß, wo deine Frau arbeitet. Überleg dir gut, ob du zur Polizei gehst.',
      'violence',
    );
    expect(threat.score).toBeGreaterThanOrEqual(0.5);
    expect(threat.evidence.some((e) => e.reporting)).toBe(false);
    expect(
      (
        await scoreTextDetailed(
          'Die Polizei sagt, er habe gedroht: Ich weiß, wo deine Frau arbeitet.',
          'violence',
        )
      ).evidence.every((e) => e.reporting),
    ).toBe(true);
  });

  it('counts weak commercial-sex cues: two stay below the threshold, three or one beside a sexual term flag', async () => {
    const cues = (text: string) => scoreTextDetailed(text, 'nsfw');
    const two = await cues('Private tutoring, discretion guaranteed, $30 per half hour.');
    expect(two.score).toBeLessThan(0.5);
    expect(two.evidence.filter((e) => e.lang === 'en').every((e) => e.rule === 'nsfwCue')).toBe(true);
    expect((await cues('Discreet massage at your hotel, $80 per half hour.')).score).toBeGreaterThanOrEqual(
      0.5,
    );
    expect((await cues('Massage with a happy ending, discreet.')).score).toBeGreaterThanOrEqual(0.5);
    expect(TEXT_WEIGHTS.nsfwCue).toBeLessThan(TEXT_WEIGHTS.nsfwSexual);
  });

  it('damps a reporting sentence as a whole, so two reported violations do not add up to a flag', async () => {
    const memorial = await scoreTextDetailed(
      'Le mémorial rappelle les juifs envoyés au four et dans les chambres à gaz.',
      'hate',
    );
    expect(memorial.evidence.filter((e) => e.lang === 'fr' && e.reporting)).toHaveLength(2);
    expect(memorial.score).toBeLessThanOrEqual(calibrate(TEXT_DAMPING.reporting));
    expect(
      (await scoreTextDetailed('Les juifs au four, dans les chambres à gaz.', 'hate')).score,
    ).toBeGreaterThanOrEqual(0.5);
  });

  it('damps a report of a slur and a history of expulsion', async () => {
    expect(
      (await scoreTextDetailed('I reported the post that called migrants rats.', 'hate')).score,
    ).toBeLessThan(0.5);
    expect(
      (await scoreTextDetailed('The book traces the expulsion of the Jews from England in 1290.', 'hate'))
        .score,
    ).toBeLessThan(0.5);
  });

  it('keeps a profanity alone below the nsfw threshold', async () => {
    expect((await scoreTextDetailed('This is bullshit.', 'nsfw')).score).toBeLessThan(0.5);
  });

  it('scores 20,000 characters (the spec limit) in one call', async () => {
    const long = 'The council met on Tuesday to discuss the new library. '.repeat(400).slice(0, 20_000);
    const details = await scoreTextDetailed(long + ' I will kill you.', 'violence');
    expect(details.score).toBeGreaterThanOrEqual(0.5);
  });

  it('documents weights between 0 and 1', () => {
    for (const w of [...Object.values(TEXT_WEIGHTS), ...Object.values(TEXT_DAMPING)]) {
      expect(w).toBeGreaterThan(0);
      expect(w).toBeLessThanOrEqual(1);
    }
  });
});

describe('the lexicons themselves', () => {
  it('every word class is used by some term (a class no term names is a rule never written)', () => {
    for (const [lang, lex] of Object.entries(LEXICONS)) {
      const { classes, ...rest } = lex!;
      const text = JSON.stringify(rest) + JSON.stringify(classes);
      const unused = Object.keys(classes).filter((name) => !text.includes(`{${name}}`));
      expect(unused, lang).toEqual([]);
    }
  });
});

describe('constructions: word classes and gaps', () => {
  const classes = { body: compileTerms(['skull', 'legs'], 'en'), poss: compileTerms(['his', 'her'], 'en') };
  const find = (text: string, terms: string[], lang: TextLanguage = 'en') =>
    findTerms(
      prepareSentence(normalize(text, lang), lang),
      compileTerms(terms, lang, lang === 'en' ? classes : {}),
    );

  it('a malformed class slot is an error, not a term that silently never matches', () => {
    for (const lang of ['en', 'zh'] as const) {
      expect(() => compileTerms(['{body|poss} x'], lang, classes)).toThrow(/brace outside/);
      expect(() => compileTerms(['{body x'], lang, classes)).toThrow(/brace outside/);
      expect(() => compileTerms(['{nope} x'], lang, classes)).toThrow(/unknown word class/);
    }
  });

  it('matches a class slot and a gap of up to N words', () => {
    const term = ['crack ~2 {poss} {body}'];
    expect(find("I'll crack his skull", term)).toHaveLength(1);
    expect(find('I will crack both of his legs', term)).toHaveLength(1);
    expect(find('I will crack the eggs', term)).toHaveLength(0);
    expect(find('crack open the box with his legs', term)).toHaveLength(0);
  });

  it('records what a gap swallowed, so a negation there negates the match', async () => {
    const [m] = find('they are not criminals', ['they are ~2 criminals']);
    expect(m!.gaps).toEqual([[2, 3]]);
    const negated = await scoreTextDetailed('Immigrants are not criminals.', 'hate');
    expect(negated.score).toBeLessThan(0.5);
    expect(negated.evidence.some((e) => e.rule === 'hateGroupPredicate' && e.negated)).toBe(true);
    expect((await scoreTextDetailed('Immigrants are criminals.', 'hate')).score).toBeGreaterThanOrEqual(0.5);
  });

  it('rejects a term that names an unknown class', () => {
    expect(() => compileTerms(['{nope} x'], 'en')).toThrow(/unknown word class \{nope\}/);
  });

  it('compiles zh/ja constructions to regular expressions', () => {
    const zh = { body: compileTerms(['脑袋', '腿'], 'zh') };
    const terms = compileTerms(['砸烂~1{body}'], 'zh', zh);
    expect(terms[0]!.regex).toBeInstanceOf(RegExp);
    const hit = findTerms(prepareSentence('我就砸烂他脑袋', 'zh'), terms);
    expect(hit).toEqual([expect.objectContaining({ start: 2, end: 7 })]);
    expect(findTerms(prepareSentence('砸烂了一个杯子', 'zh'), terms)).toHaveLength(0);
  });

  it('ends a zh/ja term at the end of a clause when it ends with $', () => {
    const terms = compileTerms(['ゲイは~4気持ち悪い~3$'], 'ja');
    const at = (text: string) => findTerms(prepareSentence(text, 'ja'), terms).length;
    expect(at('ゲイは本当に気持ち悪い')).toBe(1);
    expect(at('ゲイは気持ち悪いんだよ、まじで')).toBe(1);
    expect(at('ゲイは気持ち悪い虫が苦手な人が多い')).toBe(0);
  });

  it('holds a term with !word or !{class} only when the next word is not that word or class term', async () => {
    const terms = ['kill !time', 'shoot !{body}'];
    expect(find('I will kill you', terms)).toHaveLength(1);
    expect(find('I will kill time at the station', terms)).toHaveLength(0);
    expect(find('I will kill', terms)).toHaveLength(1); // nothing follows: nothing to exclude
    expect(find('shoot him now', terms)).toHaveLength(1);
    expect(find('shoot his legs', terms)).toHaveLength(1); // "his" is not a body word
    expect(find('shoot legs first', terms)).toHaveLength(0);
    // zh/ja: a negative lookahead after the characters before it.
    const zh = { body: compileTerms(['脑袋', '腿'], 'zh') };
    const smash = compileTerms(['砸烂!{body}', '打断!桌'], 'zh', zh);
    const at = (text: string) => findTerms(prepareSentence(text, 'zh'), smash).length;
    expect(at('我要砸烂你')).toBe(1);
    expect(at('砸烂脑袋')).toBe(0);
    expect(at('我打断你')).toBe(1);
    expect(at('打断桌子')).toBe(0);
    // In the lexicons: a time after "ich bringe dich um", an idiom after "matar".
    const violence = async (text: string) => (await scoreTextDetailed(text, 'violence')).score;
    expect(await violence('Ich bringe dich um acht nach Hause.')).toBeLessThan(0.5);
    expect(await violence('Ich bringe dich um 8 Uhr zum Bahnhof.')).toBeLessThan(0.5);
    expect(await violence('Ich bringe dich um, du Hund!')).toBeGreaterThanOrEqual(0.5);
    expect(await violence('Vamos matar a saudade no sábado!')).toBeLessThan(0.5);
    expect(await violence('Vamos matar ele amanhã.')).toBeGreaterThanOrEqual(0.5);
    expect(await violence('Vamos a matar el tiempo en el bar.')).toBeLessThan(0.5);
    expect(await violence('Te voy a matar.')).toBeGreaterThanOrEqual(0.5);
  });

  it('indexes terms that start with a one-character prefix (a number)', () => {
    const terms = ['5* ~2 per hour', '{poss} 9* ~1 hours'];
    expect(find('only 50 dollars per hour', terms)).toHaveLength(1);
    expect(find('his 90 hours', terms)).toHaveLength(1);
    expect(find('only forty per hour', terms)).toHaveLength(0);
  });

  it('ends a spaced term at the end of a clause when it holds $', () => {
    const terms = ['you wo not make it to friday $'];
    expect(find("You won't make it to Friday.", terms)).toHaveLength(1);
    expect(find("You won't make it to Friday, trust me", terms)).toHaveLength(1);
    expect(find("You won't make it to Friday's meeting", terms)).toHaveLength(0);
    expect(find("You won't make it to Friday night drinks", terms)).toHaveLength(0);
  });

  it('prefers the construction that needed no gap when two cover the same words', () => {
    const all = find('they are nothing but thieves', ['they are ~2 thieves', 'they are nothing but thieves']);
    expect(all).toHaveLength(2);
    expect(longestMatches(all)[0]!.term).toBe('they are nothing but thieves');
  });

  it('falls back to the shorter matches over the same words when the longest is negated', () => {
    // The long term spans a negation in its gap; the short one, outside it, is not negated.
    const long = {
      term: 'women ~4 stupid',
      start: 0,
      end: 9,
      quoted: false,
      gaps: [[1, 8]] as Array<[number, number]>,
    };
    const short = { term: 'are too stupid', start: 6, end: 9, quoted: false };
    const apart = { term: 'parasites', start: 12, end: 13, quoted: false };
    const negated = (m: { term: string }) => m === long;
    expect(longestUnnegated([long, short, apart], negated)).toEqual([short, apart]);
    // Nothing clean underneath: the negated match stays (and is damped as negated).
    expect(longestUnnegated([long, short, apart], () => true)).toEqual([long, apart]);
    // Not negated: the longest match, as longestMatches keeps it.
    expect(longestUnnegated([long, short, apart], () => false)).toEqual([long, apart]);
  });
});

describe('construction rules in every language', () => {
  it.each([
    ['en', 'violence', "If I catch him again I'm going to smash his face in."],
    ['en', 'violence', 'Somebody should strangle that politician.'],
    ['fr', 'violence', 'Je te défonce la gueule si tu reviens.'],
    ['es', 'violence', 'Como te vea otra vez, te rompo las piernas.'],
    ['de', 'violence', 'Ich breche dir alle Knochen, wenn du nochmal kommst.'],
    ['it', 'violence', 'Ti rompo le gambe se ti rivedo qui.'],
    ['pt', 'violence', 'Juro que te quebro os dentes.'],
    ['nl', 'violence', 'Ik sla je kop in als je terugkomt.'],
    ['ru', 'violence', 'Сломаю тебе ноги, если ещё раз придёшь.'],
    ['ar', 'violence', 'سأقطع يده إذا لمسها.'],
    ['zh', 'violence', '我要把他的头打爆。'],
    ['ja', 'violence', 'お前の腕をへし折ってやる。'],
    ['ko', 'violence', '다시 마주치면 얼굴을 박살 내 버릴 거야.'],
    ['en', 'hate', 'Muslims are all terrorists and should be thrown out.'],
    ['ko', 'hate', '난민들은 전부 범죄자들이다, 쫓아내야 한다.'],
    ['en', 'nsfw', 'Message me for my spicy pics, only $5.'],
    ['pt', 'nsfw', 'Vamos foder a noite toda, gostosa.'],
  ] as const)('%s %s flags: %s', async (_lang, policy, text) => {
    expect((await scoreTextDetailed(text, policy)).score).toBeGreaterThanOrEqual(0.5);
  });

  it.each([
    ['en', 'violence', 'The chef cracked the eggs and beat them with a whisk.'],
    ['en', 'violence', "Police said the man threatened to crack his neighbour's skull with a hammer."],
    ['en', 'violence', 'I would never break his nose, I just want him to apologise.'],
    ['es', 'violence', 'Corta la cabeza del pescado y quita las espinas.'],
    ['ja', 'violence', '彼はこのプロジェクトのために骨を折ってくれた。'],
    ['ru', 'hate', 'Мигранты часто становятся жертвами преступников.'],
    ['zh', 'hate', '移民不是罪犯，研究显示。'],
    ['en', 'nsfw', 'DM me for the recipe and the photos of the cake.'],
  ] as const)('%s %s stays below the threshold: %s', async (_lang, policy, text) => {
    expect((await scoreTextDetailed(text, policy)).score).toBeLessThan(0.5);
  });
});

describe('round 6 engine features', () => {
  it('records a negation inside a zh/ja gap as a negation of the match, like in spaced languages', async () => {
    const terms = compileTerms(['卖~3私密视频'], 'zh');
    const [hit] = findTerms(prepareSentence('我卖的不是私密视频', 'zh'), terms);
    expect(hit?.gaps).toEqual([[2, 5]]);
    const sold = await scoreTextDetailed('我卖的不是私密视频', 'nsfw');
    expect(sold.evidence.some((e) => e.negated)).toBe(true);
    expect(sold.score).toBeLessThan(0.5);
    expect((await scoreTextDetailed('我卖私密视频', 'nsfw')).score).toBeGreaterThanOrEqual(0.5);
  });

  it('reads {num} as any number in every language unless the lexicon defines the class', () => {
    const fr = compileTerms(['{num} ~1 la demi heure'], 'fr');
    const at = (text: string) => findTerms(prepareSentence(normalize(text, 'fr'), 'fr'), fr).length;
    expect(at('80 euros la demi-heure')).toBe(1);
    expect(at('quatre euros la demi-heure')).toBe(0);
    const zh = compileTerms(['{num}元一次'], 'zh');
    const zhAt = (text: string) => findTerms(prepareSentence(text, 'zh'), zh);
    expect(zhAt('全套800元一次')).toEqual([expect.objectContaining({ start: 2, end: 8 })]);
    expect(zhAt('几百元一次')).toHaveLength(0);
  });

  it('counts game names in Latin letters as play in every language, Cyrillic and Japanese included', async () => {
    expect(
      (await scoreTextDetailed('Я тебя убью, если ты вернёшься.', 'violence')).score,
    ).toBeGreaterThanOrEqual(0.5);
    const game = await scoreTextDetailed('В Fortnite я тебя убью, если ты вернёшься.', 'violence');
    expect(game.score).toBeLessThan(0.5);
    expect(game.evidence.some((e) => e.play === true)).toBe(true);
    expect((await scoreTextDetailed('お前を殺す', 'violence')).score).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed('次のPvPでお前を殺す', 'violence')).score).toBeLessThan(0.5);
  });

  it('drops a sexual word or a slur inside an ordinary phrase of the nsfw or hate benign list', async () => {
    expect(
      (await scoreTextDetailed('Blue tits and great tits nest in our garden.', 'nsfw')).score,
    ).toBeLessThan(0.5);
    expect((await scoreTextDetailed('Show me your tits.', 'nsfw')).score).toBeGreaterThanOrEqual(0.5);
    expect((await scoreTextDetailed('The cock crowed at dawn on the farm.', 'nsfw')).score).toBeLessThan(0.5);
    expect((await scoreTextDetailed('Suck my cock.', 'nsfw')).score).toBeGreaterThanOrEqual(0.5);
    expect(
      (await scoreTextDetailed('Zum Mittag gab es Zigeunerschnitzel mit Pommes.', 'hate')).score,
    ).toBeLessThan(0.5);
    expect((await scoreTextDetailed('Die Zigeuner klauen doch alle.', 'hate')).score).toBeGreaterThanOrEqual(
      0.5,
    );
  });
});
