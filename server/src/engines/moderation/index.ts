/**
 * The moderation engine (spec 4.6): composes the image classifier (nsfwjs on tfjs-wasm), the video
 * frame sampler (ffmpeg) and the text classifier (lexicons in 12 languages, or a local ONNX model).
 * Called synchronously by POST /moderation. Models load once per process (warmUp) and are shared.
 */
import type { ModerationEngine, ModerationPolicyName } from '../types.js';
import { scoreImageForPolicy } from './imagePolicies.js';
import { nsfwImageClassifier } from './nsfwImage.js';
import { scoreFrames } from './scoreVideo.js';
import { loadLanguageIdentifier } from './text/languageId.js';
import { scoreText } from './text/scoreText.js';
import { sampleVideoFrames } from './videoFrames.js';

export { ImageDecodeError } from './decodeImage.js';
export { VideoDecodeError } from './videoFrames.js';

let warm: Promise<void> | undefined;

export const moderationEngine: ModerationEngine = {
  warmUp() {
    warm ??= (async () => {
      await Promise.all([nsfwImageClassifier(), loadLanguageIdentifier()]);
      await scoreText('warm up', 'nsfw');
    })();
    warm.catch(() => {
      warm = undefined;
    });
    return warm;
  },

  scoreImage(image: Buffer, policy: ModerationPolicyName, signal?: AbortSignal) {
    return scoreImageForPolicy(image, policy, signal);
  },

  async scoreVideo(path, { policy, threshold, maxFrames, signal }) {
    const source = await sampleVideoFrames(path, maxFrames, signal);
    const scorer = (frame: Buffer, s?: AbortSignal) => scoreImageForPolicy(frame, policy, s);
    return scoreFrames(source, scorer, threshold, signal);
  },

  async scoreText(text: string, policy: ModerationPolicyName, signal?: AbortSignal) {
    signal?.throwIfAborted();
    return scoreText(text, policy);
  },
};
