/**
 * Picks an espeak-ng voice for a text when the request names none: the language is detected with
 * cld3-asm (Google's Compact Language Detector v3 compiled to WebAssembly, Apache-2.0), then mapped to
 * the matching voice; English when unsure.
 */
import { loadModule, type LanguageIdentifier } from 'cld3-asm';
import { DEFAULT_VOICE, isVoice } from './voices.js';

const PREFERRED: Record<string, string> = {
  en: 'en-us',
  zh: 'cmn',
  'zh-Latn': 'cmn-latn-pinyin',
  fr: 'fr-fr',
  pt: 'pt-br',
  fil: 'en-us',
  iw: 'he',
  no: 'nb',
  jv: 'id',
};

let identifier: Promise<LanguageIdentifier> | undefined;

export async function voiceForText(text: string): Promise<string> {
  identifier ??= loadModule().then((factory) => factory.create(0, 2000));
  const result = (await identifier).findLanguage(text.slice(0, 2000));
  if (!result.is_reliable || result.language === 'und') return DEFAULT_VOICE;
  const voice = PREFERRED[result.language] ?? result.language;
  return isVoice(voice) ? voice : DEFAULT_VOICE;
}
