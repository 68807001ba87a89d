/**
 * Image scores per policy. nsfw is the nsfwjs classifier through nsfwScore's documented mapping.
 *
 * violence and hate on images are "not yet verified" in the spec, and no model that recognises
 * violent scenes or hate symbols ships in any npm or Debian package this server can install offline.
 * The best honest signal available is the WRITTEN text in the picture: ocrImage.ts reads it
 * (tesseract.js, English and the Latin-script spec languages) and the text moderation scores it for
 * the requested policy, so a meme or sign carrying a threat or a slur scores what that text scores.
 * A picture without legible words scores 0.01 (the score of an ordinary image): a violent photo with
 * no words in it is NOT recognised, and docs/moderation.md says so.
 */
import type { ModerationPolicyName } from '../types.js';
import { nsfwImageClassifier } from './nsfwImage.js';
import { nsfwScore } from './nsfwScore.js';
import { readImageText } from './ocrImage.js';
import { scoreText as scoreTextWithLexicons } from './text/scoreText.js';

/** Score of an image whose violence/hate signal found nothing (no legible text, or harmless text). */
export const UNSUPPORTED_IMAGE_POLICY_SCORE = 0.01;

/** Scores a text for a policy (the engine passes its own, which may include an ONNX classifier). */
export type TextScorer = (
  text: string,
  policy: ModerationPolicyName,
  signal?: AbortSignal,
) => Promise<number>;

/** True where the policy's image score comes from an image model (false: from the text in the picture). */
export function imagePolicyHasModel(policy: ModerationPolicyName): boolean {
  return policy === 'nsfw';
}

export async function scoreImageForPolicy(
  image: Buffer,
  policy: ModerationPolicyName,
  signal?: AbortSignal,
  scoreText: TextScorer = scoreTextWithLexicons,
  onDecoded?: () => void,
): Promise<number> {
  if (policy !== 'nsfw') {
    // readImageText decodes the bytes first: an unreadable image is a 400 whatever the policy.
    let score = UNSUPPORTED_IMAGE_POLICY_SCORE;
    for (const text of await readImageText(image, signal, onDecoded)) {
      if (text.trim()) score = Math.max(score, await scoreText(text, policy, signal));
    }
    return score;
  }
  const classifier = await nsfwImageClassifier();
  return nsfwScore(await classifier.classify(image, signal, onDecoded));
}
