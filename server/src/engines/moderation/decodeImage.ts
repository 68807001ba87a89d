/**
 * Decodes image bytes (jpeg, png, webp, gif: first frame) with sharp into the square RGB raster a
 * classifier wants. sharp resizes with a proper filter, which is faster and better than resizing in tfjs.
 *
 * Uniform borders (letterbox and pillarbox bars of video frames, flat margins around a picture) are
 * trimmed first (uniformBorders.ts): squeezed into the 224 px square they are not neutral to nsfwjs (a brick-wall photo
 * pillarboxed in a 16:9 frame scored 0.29 with its bars and 0.04 without them).
 */
import sharp from 'sharp';
import { uniformBorderBox } from './uniformBorders.js';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Thrown when the bytes are not an image sharp can read; the caller turns it into a 400. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

/** Longest side the picture is reduced to before the border trim (JPEG shrink-on-load makes this cheap). */
const WORKING_SIDE = 512;

export async function decodeToSquareRgb(image: Buffer, size: number): Promise<RgbImage> {
  try {
    const decoded = await sharp(image, { pages: 1, failOn: 'error', limitInputPixels: 100_000_000 })
      .rotate()
      .resize(WORKING_SIDE, WORKING_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = decoded.info;
    const pixels = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length);
    let picture = sharp(decoded.data, { raw: { width, height, channels: 3 } });
    const box = uniformBorderBox(pixels, width, height, 3);
    // Keep the trim only when a real picture is left (at least a quarter of each side); a uniform
    // image is classified as it is.
    if ((box.width < width || box.height < height) && box.width * 4 >= width && box.height * 4 >= height) {
      picture = picture.extract(box);
    }
    const { data, info } = await picture
      .resize(size, size, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    throw new ImageDecodeError(`image could not be decoded: ${(error as Error).message}`);
  }
}
