import type { TextLanguage } from '../languages.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { nl } from './nl.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import type { Lexicon } from './types.js';
import { zh } from './zh.js';

/** Every language's lexicon, by ISO 639-1 code. */
export const LEXICONS: Partial<Record<TextLanguage, Lexicon>> = {
  en,
  zh,
  ja,
  ko,
  fr,
  es,
  de,
  it,
  pt,
  nl,
  ar,
  ru,
};
