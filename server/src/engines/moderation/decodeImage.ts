/**
 * Decodes image bytes (jpeg, png, webp, gif: first frame) with sharp into the square RGB raster a
 * classifier wants. sharp resizes with a proper filter, which is faster and better than resizing in tfjs.
 */
import sharp from 'sharp';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Thrown when the bytes are not an image sharp can read; the caller turns it into a 400. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

export async function decodeToSquareRgb(image: Buffer, size: number): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(image, { pages: 1, failOn: 'error', limitInputPixels: 100_000_000 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(size, size, { fit: 'fill' })
      .removeAlpha()
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
