/** Decodes an image file (first frame of an animation) to packed RGB with sharp, EXIF rotation applied. */
import sharp from 'sharp';
import type { RgbImage } from './rgbImage.js';

export async function readRgb(input: string | Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(input, { failOn: 'error' })
    .rotate()
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}
