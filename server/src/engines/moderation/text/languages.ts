/** The 12 languages the spec reads natively (spec 4.6 rule 5), and how each is matched. */
export const TEXT_LANGUAGES = [
  'en',
  'zh',
  'ja',
  'ko',
  'fr',
  'es',
  'de',
  'it',
  'pt',
  'nl',
  'ar',
  'ru',
] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

/** Latin-script languages: the ones cld3 confuses with each other (and with their neighbours) on short texts. */
export const LATIN_LANGUAGES: readonly TextLanguage[] = ['en', 'fr', 'es', 'de', 'it', 'pt', 'nl'];

/**
 * zh and ja are written without spaces: terms are matched as substrings and checked against
 * Intl.Segmenter word boundaries. Every other language (Korean included: its words are space
 * separated, particles attach at the end, so prefix terms work) is matched on word tokens.
 */
export function isUnspaced(lang: TextLanguage): boolean {
  return lang === 'zh' || lang === 'ja';
}

export function isTextLanguage(code: string): code is TextLanguage {
  return (TEXT_LANGUAGES as readonly string[]).includes(code);
}
