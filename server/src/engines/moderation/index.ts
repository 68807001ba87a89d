/**
 * The moderation engine (spec 4.6): composes the image classifier (nsfwjs on tfjs-wasm), the video
 * frame sampler (ffmpeg), the OCR of written text in pictures (tesseract.js, for violence and hate on
 * images, read lazily on first use) and the text classifier (lexicons in 12 languages, plus an optional local
 * ONNX model). Called synchronously by POST /moderation. Models load once per process (warmUp) and
 * are shared by every request; inference is queued.
 *
 * Errors: ImageDecodeError / VideoDecodeError mean the media could not be read (a 400 for the
 * client); TextClassifierConfigError means MEDIAGEN_TEXT_CLASSIFIER_DIR is unusable (warmUp fails);
 * anything else is a classification failure (a 500).
 */
import type { ModerationEngine, ModerationPolicyName } from '../types.js';
import { scoreImageForPolicy } from './imagePolicies.js';
import { nsfwImageClassifier } from './nsfwImage.js';
import { scoreFrames } from './scoreVideo.js';
import { loadLanguageIdentifier } from './text/languageId.js';
import { loadOnnxTextClassifier, type TextClassifier } from './text/onnxClassifier.js';
import { scoreText as scoreTextWithLexicons } from './text/scoreText.js';
import { warmUpLexicons } from './text/warmUpLexicons.js';
import { sampleVideoFrames } from './videoFrames.js';

export { ImageDecodeError } from './decodeImage.js';
export { VideoDecodeError } from './videoFrames.js';
export { TextClassifierConfigError } from './text/onnxClassifier.js';

export interface ModerationEngineOptions {
  /** Directory of a local ONNX text classifier (see text/onnxClassifier.ts); none: lexicons only. */
  textClassifierDir?: string;
}

export function createModerationEngine(options: ModerationEngineOptions = {}): ModerationEngine {
  let warm: Promise<void> | undefined;
  let classifier: Promise<TextClassifier | undefined> | undefined;

  const textClassifier = () => {
    classifier ??= options.textClassifierDir
      ? loadOnnxTextClassifier(options.textClassifierDir)
      : Promise.resolve(undefined);
    classifier.catch(() => {
      classifier = undefined;
    });
    return classifier;
  };

  const scoreText = async (text: string, policy: ModerationPolicyName, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    const model = await textClassifier();
    if (!model || !model.policies.includes(policy)) return scoreTextWithLexicons(text, policy);
    const modelScore = await model.score(text, policy, signal);
    const score =
      model.combine === 'replace'
        ? modelScore
        : Math.max(modelScore, await scoreTextWithLexicons(text, policy));
    return Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000;
  };

  return {
    warmUp() {
      warm ??= (async () => {
        // The lexicons compile on this thread while the nsfw model loads in its worker.
        await Promise.all([
          nsfwImageClassifier(),
          loadLanguageIdentifier(),
          textClassifier(),
          warmUpLexicons(),
        ]);
        // The whole path of a text, language identification included.
        await scoreText('warm up', 'nsfw');
      })();
      warm.catch(() => {
        warm = undefined;
      });
      return warm;
    },

    scoreImage(image, policy, signal, onDecoded) {
      return scoreImageForPolicy(image, policy, signal, scoreText, onDecoded);
    },

    async scoreVideo(path, { policy, threshold, maxFrames, signal }) {
      const source = await sampleVideoFrames(path, maxFrames, signal);
      const scorer = (frame: Buffer, s?: AbortSignal) => scoreImageForPolicy(frame, policy, s, scoreText);
      return scoreFrames(source, scorer, threshold, signal);
    },

    scoreText,
  };
}

/** The process-wide engine, configured from the environment (MEDIAGEN_TEXT_CLASSIFIER_DIR). */
export const moderationEngine: ModerationEngine = createModerationEngine({
  textClassifierDir: process.env.MEDIAGEN_TEXT_CLASSIFIER_DIR?.trim() || undefined,
});
