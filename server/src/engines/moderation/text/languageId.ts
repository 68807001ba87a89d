/**
 * Language identification with cld3-asm (Google's CLD3 compiled to wasm, model inside the package),
 * narrowed to the spec's 12 languages, with a script check first: Hangul, kana, Han, Arabic and
 * Cyrillic decide the language on their own; cld3 is only asked to tell Latin-script languages apart.
 * Short Latin texts are where cld3 is unsure (it calls "Voy a matarte" Galician), so an unreliable or
 * out-of-scope answer makes the caller read the text with every Latin-script lexicon.
 */
import { createRequire } from 'node:module';
import { LATIN_LANGUAGES, isTextLanguage, type TextLanguage } from './languages.js';

interface Cld3Identifier {
  findLanguage(text: string): { language: string; probability: number; is_reliable: boolean };
}

const require = createRequire(import.meta.url);
let identifier: Promise<Cld3Identifier> | undefined;

export function loadLanguageIdentifier(): Promise<Cld3Identifier> {
  identifier ??= (async () => {
    const { loadModule } = require('cld3-asm') as {
      loadModule: () => Promise<{ create(minBytes?: number, maxBytes?: number): Cld3Identifier }>;
    };
    const factory = await loadModule();
    return factory.create(0, 2000);
  })();
  identifier.catch(() => {
    identifier = undefined;
  });
  return identifier;
}

const HANGUL = /[\p{Script=Hangul}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /[\p{Script=Han}]/u;
const ARABIC = /[\p{Script=Arabic}]/u;
/** Below this many letters cld3's answer is not trusted alone (see identifyLanguages). */
const SHORT_TEXT_LETTERS = 40;
const CYRILLIC = /[\p{Script=Cyrillic}]/u;
const LATIN = /[\p{Script=Latin}]/u;

export interface IdentifiedLanguages {
  /** cld3's answer (or the script's), for logs and docs; `und` when nothing was found. */
  detected: string;
  reliable: boolean;
  /** Languages whose lexicons read the text, most likely first. */
  languages: TextLanguage[];
}

export async function identifyLanguages(text: string): Promise<IdentifiedLanguages> {
  const found: TextLanguage[] = [];
  if (HANGUL.test(text)) found.push('ko');
  if (KANA.test(text)) found.push('ja');
  else if (HAN.test(text)) found.push('zh');
  if (ARABIC.test(text)) found.push('ar');
  if (CYRILLIC.test(text)) found.push('ru');
  if (!LATIN.test(text)) {
    return { detected: found[0] ?? 'und', reliable: found.length > 0, languages: found };
  }
  if (found.length > 0) {
    // A few Latin words in a CJK, Arabic or Russian text are almost always English (brands, slang).
    const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
    const letters = text.match(/\p{L}/gu)?.length ?? 1;
    if (latin / letters < 0.2) return { detected: found[0]!, reliable: true, languages: [...found, 'en'] };
  }
  const cld = await loadLanguageIdentifier();
  const result = cld.findLanguage(text.slice(0, 2000));
  const code = result.language.split('-')[0] ?? 'und';
  // cld3 calls short texts reliably and wrongly ("Je vais te crever." is Portuguese to it), so a text
  // of fewer than SHORT_TEXT_LETTERS letters is read by every Latin lexicon, its guess first.
  const letterCount = text.match(/\p{L}/gu)?.length ?? 0;
  if (
    isTextLanguage(code) &&
    found.length === 0 &&
    result.is_reliable &&
    letterCount >= SHORT_TEXT_LETTERS &&
    LATIN_LANGUAGES.includes(code)
  ) {
    // English is mixed into every language online; read it too.
    const languages: TextLanguage[] = code === 'en' ? ['en'] : [code, 'en'];
    return { detected: code, reliable: true, languages };
  }
  const latin = [...LATIN_LANGUAGES].sort((a, b) => (a === code ? -1 : b === code ? 1 : 0));
  return { detected: code, reliable: false, languages: [...found, ...latin] };
}
