/**
 * The documented mapping from nsfwjs's five class probabilities to one 0..1 `nsfw` score.
 *
 * nsfwjs answers a probability for each of Drawing, Hentai, Neutral, Porn and Sexy (they sum to 1).
 * The score is the expected "severity" of the image under those probabilities:
 *
 *     score = 0.01 * (Neutral + Drawing) + 0.45 * Sexy + 0.90 * Hentai + 1.00 * Porn
 *
 * clamped to [0, 1] and rounded to 4 decimals. Each class's weight is the spec's reference score for
 * the kind of picture the class stands for (spec 4.6, "approximate nsfw scores"):
 * - Neutral / Drawing: ordinary photos and drawings, about 0.01;
 * - Sexy: swimwear, underwear, fitness, suggestive but not explicit, about 0.45, so that an image
 *   that is only "Sexy" can never reach the default threshold 0.5;
 * - Porn: nudity or sexual activity, 0.90 and above (a photo nsfwjs calls Porn with p = 0.9 and
 *   Sexy with the rest scores 0.945);
 * - Hentai: explicit drawings, 0.90.
 * Mixed cases land between: lingerie / strongly suggestive images, which nsfwjs splits between Sexy and
 * Porn (about half each), score about 0.70-0.75, the spec's 0.70-0.80 band.
 */

export const NSFW_CLASS_NAMES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClassName = (typeof NSFW_CLASS_NAMES)[number];
export type NsfwClassProbabilities = Record<NsfwClassName, number>;

/** The weight of each class in the expected score (see the module comment). */
export const NSFW_CLASS_WEIGHTS: Readonly<NsfwClassProbabilities> = {
  Drawing: 0.01,
  Neutral: 0.01,
  Sexy: 0.45,
  Hentai: 0.9,
  Porn: 1,
};

export function nsfwScore(probabilities: NsfwClassProbabilities): number {
  let total = 0;
  let mass = 0;
  for (const name of NSFW_CLASS_NAMES) {
    const p = probabilities[name];
    if (!Number.isFinite(p) || p < 0) throw new RangeError(`invalid probability for ${name}: ${p}`);
    total += p * NSFW_CLASS_WEIGHTS[name];
    mass += p;
  }
  if (mass <= 0) throw new RangeError('class probabilities sum to zero');
  // Softmax outputs sum to 1 up to float error; normalise so a caller's rounding cannot shift the scale.
  const score = total / mass;
  return Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000;
}
