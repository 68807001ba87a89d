/**
 * Decodes image bytes (jpeg, png, webp, gif: first frame) with sharp into the square RGB raster a
 * classifier wants. sharp resizes with a proper filter, which is faster and better than resizing in tfjs.
 *
 * Uniform borders (letterbox and pillarbox bars of video frames, flat margins around a picture) are
 * trimmed first (uniformBorders.ts): squeezed into the 224 px square they are not neutral to nsfwjs (a brick-wall photo
 * pillarboxed in a 16:9 frame scored 0.29 with its bars and 0.04 without them).
 *
 * Most pictures have no border, so the first pass goes straight to the square and looks for borders
 * there: one sharp pass instead of two (each pass is a trip through libvips's per-call machinery and
 * the libuv pool, about 1.4 ms for a 384 px photo). Only a picture with borders is decoded again at a
 * working size, where thin bars are found exactly, and cut before the resize.
 */
import sharp from 'sharp';
import { uniformBorderBox, type Box } from './uniformBorders.js';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Thrown when the bytes are not an image sharp can read; the caller turns it into a 400. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

/** Longest side a bordered picture is reduced to before the trim (JPEG shrink-on-load makes this cheap). */
const WORKING_SIDE = 512;

/** Upright, on white where transparent, sRGB, three channels. */
function opened(image: Buffer): sharp.Sharp {
  return sharp(image, { pages: 1, failOn: 'error', limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha();
}

function rgbOf({ data, info }: { data: Buffer; info: sharp.OutputInfo }): RgbImage {
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * The box to cut, or undefined: kept only when it removes something and a real picture is left (at
 * least a quarter of each side); a uniform image is classified as it is.
 */
function borderToTrim(image: RgbImage): Box | undefined {
  const { width, height } = image;
  const box = uniformBorderBox(image.data, width, height, 3);
  const trims = box.width < width || box.height < height;
  return trims && box.width * 4 >= width && box.height * 4 >= height ? box : undefined;
}

export async function decodeToSquareRgb(image: Buffer, size: number): Promise<RgbImage> {
  try {
    const square = rgbOf(
      await opened(image).resize(size, size, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true }),
    );
    if (!borderToTrim(square)) return square;

    const working = rgbOf(
      await opened(image)
        .resize(WORKING_SIDE, WORKING_SIDE, { fit: 'inside', withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    let picture = sharp(working.data, { raw: { width: working.width, height: working.height, channels: 3 } });
    const box = borderToTrim(working);
    if (box) picture = picture.extract(box);
    return rgbOf(
      await picture.resize(size, size, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true }),
    );
  } catch (error) {
    throw new ImageDecodeError(`image could not be decoded: ${(error as Error).message}`);
  }
}
