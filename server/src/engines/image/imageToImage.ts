/**
 * image-to-image: the prompt's instruction applied to the input image as real edits with sharp
 * (black and white, sepia, blur, sharpen, brighter/darker, more/less saturated, contrast, warmer/cooler,
 * invert, mirror, flip, rotate, posterise, cartoon, pixelate), several in one prompt in the order
 * named; then cropped (attention-based: the busiest, most colourful region is kept) or padded
 * ("pad", "letterbox", "fit") to the requested aspect ratio, and resized to the requested resolution;
 * an enlargement is cropped or padded at the picture's own scale first and then enlarged with pixel
 * centres aligned (enlargeImage.ts). Without aspect_ratio or resolution the input's size is kept.
 */
import sharp from 'sharp';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { IMAGE_LONG_SIDE, parseAspect, sizeForAspect } from './dimensions.js';
import { applyFormat, IMAGE_MIME, imageFormat, type ImageFormat, type Quality } from './encodeImage.js';
import { AUTO_ENHANCE, editsFromPrompt, toRaw, type RawImage } from './imageEdits.js';
import { enlargeCentred } from './enlargeImage.js';
import { PromptWords } from './promptWords.js';
import { join } from 'node:path';

const MAX_INPUT_PIXELS = 50_000_000;

/** Aspect ratio named in the prompt when the parameter is absent ("square", "widescreen", "9:16"). */
function aspectFromPrompt(p: PromptWords): string | undefined {
  const m = /\b([1-9]\d?):([1-9]\d?)\b/.exec(p.text);
  if (m) return `${m[1]}:${m[2]}`;
  if (p.has('square')) return '1:1';
  if (p.has('widescreen', 'landscape', 'cinematic')) return '16:9';
  if (p.has('portrait', 'vertical', 'story', 'stories')) return '9:16';
  return undefined;
}

export async function loadInputImage(path: string, field: string): Promise<RawImage> {
  try {
    const image = sharp(path, { limitInputPixels: MAX_INPUT_PIXELS }).rotate(); // honour EXIF orientation
    return await toRaw(image);
  } catch {
    throw new EngineError(
      `the image at ${field} could not be read (not a supported image, or larger than 50 megapixels)`,
    );
  }
}

async function run(input: EngineInput): Promise<EngineOutput> {
  const media = input.media.find((m) => m.field === 'image');
  if (!media) throw new EngineError('image is required');
  if (media.kind !== 'image') throw new EngineError(`image must be an image file (got ${media.mime})`);
  const prompt = new PromptWords(String(input.params.prompt ?? ''));
  let image = await loadInputImage(media.path, 'image');

  const edits = editsFromPrompt(prompt);
  for (const edit of edits.length ? edits : [AUTO_ENHANCE]) {
    input.signal.throwIfAborted();
    image = await edit.apply(image, prompt);
  }

  const aspect = (input.params.aspect_ratio as string | undefined) ?? aspectFromPrompt(prompt);
  const pad = prompt.has('pad', 'padding', 'letterbox', 'pillarbox', 'fit', 'contain', 'extend', 'whole');
  let target = { width: image.width, height: image.height };
  if (aspect) {
    // Without a resolution: the largest crop of that shape inside the image, or the smallest canvas
    // of that shape around it when padding.
    const [aw, ah] = parseAspect(aspect);
    const byWidth = { width: image.width, height: Math.round((image.width * ah) / aw) };
    const byHeight = { width: Math.round((image.height * aw) / ah), height: image.height };
    const fitsInside = byWidth.height <= image.height;
    target = pad ? (fitsInside ? byHeight : byWidth) : fitsInside ? byWidth : byHeight;
  }
  const resolution = input.params.resolution as keyof typeof IMAGE_LONG_SIDE | undefined;
  const currentLong = Math.max(target.width, target.height);
  const longSide = resolution ? IMAGE_LONG_SIDE[resolution] : Math.min(4096, currentLong);
  if (aspect) target = sizeForAspect(aspect, longSide);
  else if (longSide !== currentLong) {
    const k = longSide / currentLong;
    target = {
      width: Math.max(1, Math.round(target.width * k)),
      height: Math.max(1, Math.round(target.height * k)),
    };
  }
  const fit = aspect ? (pad ? 'contain' : 'cover') : 'fill';
  const resizeOptions: sharp.ResizeOptions = {
    fit,
    position: aspect && !pad ? sharp.strategy.attention : 'centre',
    background: prompt.has('white') && pad ? '#ffffff' : '#000000',
  };
  const raw = (img: RawImage) =>
    sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  let pipeline = raw(image);
  if (target.width !== image.width || target.height !== image.height) {
    // The scale sharp would apply: the larger axis ratio for cover, the smaller for contain.
    const kx = target.width / image.width;
    const ky = target.height / image.height;
    const k = fit === 'cover' ? Math.max(kx, ky) : Math.min(kx, ky);
    if (fit === 'fill' ? kx >= 1 && ky >= 1 : k > 1) {
      // An enlargement: crop or pad at the picture's own scale, then enlarge with pixel centres
      // aligned (sharp's resize would shift it half a pixel: enlargeImage.ts).
      // The target's size at the picture's scale: cover crops (never beyond the picture), contain pads.
      const atOwnScale = (side: number, own: number) => {
        const n = Math.max(1, Math.round(side / k));
        return fit === 'cover' ? Math.min(own, n) : n;
      };
      const base =
        fit === 'fill'
          ? image
          : await toRaw(
              pipeline.resize(
                atOwnScale(target.width, image.width),
                atOwnScale(target.height, image.height),
                resizeOptions,
              ),
            );
      pipeline = raw(await enlargeCentred(base, target.width, target.height));
    } else {
      pipeline = pipeline.resize(target.width, target.height, resizeOptions);
    }
  }
  const inputFormat = media.mime.split('/')[1];
  const format: ImageFormat = input.params.output_format
    ? imageFormat(input.params.output_format)
    : imageFormat(inputFormat === 'jpg' ? 'jpeg' : inputFormat);
  const path = join(input.workDir, `edited.${format}`);
  await applyFormat(pipeline, format, (input.params.quality as Quality | undefined) ?? 'medium').toFile(path);
  return { type: 'image', files: [{ path, mime: IMAGE_MIME[format], ext: format }] };
}

export const imageToImageEngine: GenerationEngine = {
  id: 'image-editor',
  tasks: ['image-to-image'],
  run,
};
