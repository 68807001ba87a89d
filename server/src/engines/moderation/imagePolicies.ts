/**
 * Image scores per policy. nsfw is the nsfwjs classifier through nsfwScore's documented mapping.
 *
 * violence and hate on images are "not yet verified" in the spec, and no model that recognises
 * violence or hate symbols ships in any npm or Debian package this server can install offline. The
 * honest answer is therefore the model-free floor: these policies score every image 0.01 (the score of
 * an ordinary image), i.e. they never flag an image, and docs/moderation.md says so. An operator who
 * needs them must plug a real classifier in; the engine does not pretend to see what it cannot.
 */
import type { ModerationPolicyName } from '../types.js';
import { nsfwImageClassifier } from './nsfwImage.js';
import { nsfwScore } from './nsfwScore.js';

/** Score answered for image policies that have no image classifier (violence, hate). */
export const UNSUPPORTED_IMAGE_POLICY_SCORE = 0.01;

/** True where the policy's image score comes from a model. */
export function imagePolicyHasModel(policy: ModerationPolicyName): boolean {
  return policy === 'nsfw';
}

export async function scoreImageForPolicy(
  image: Buffer,
  policy: ModerationPolicyName,
  signal?: AbortSignal,
): Promise<number> {
  if (policy !== 'nsfw') {
    // Still decode the bytes: an unreadable image is a 400 whatever the policy.
    const { decodeToSquareRgb } = await import('./decodeImage.js');
    await decodeToSquareRgb(image, 8);
    return UNSUPPORTED_IMAGE_POLICY_SCORE;
  }
  const classifier = await nsfwImageClassifier();
  return nsfwScore(await classifier.classify(image, signal));
}
