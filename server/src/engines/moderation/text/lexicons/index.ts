import type { TextLanguage } from '../languages.js';
import { en } from './en.js';
import type { Lexicon } from './types.js';

/** Every language's lexicon, by ISO 639-1 code. */
export const LEXICONS: Partial<Record<TextLanguage, Lexicon>> = { en };
