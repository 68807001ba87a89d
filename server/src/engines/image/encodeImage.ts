/**
 * Writing an image file with sharp in the requested output_format, with `quality` mapped to encoder
 * effort (low = fast and smaller, high = slower and better). PNG is the default (lossless).
 */
import type { Sharp } from 'sharp';
import { join } from 'node:path';
import type { OutputFile } from '../types.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';
export type Quality = 'low' | 'medium' | 'high';

export const IMAGE_MIME: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export function imageFormat(value: unknown): ImageFormat {
  return value === 'jpeg' || value === 'webp' ? value : 'png';
}

export function applyFormat(image: Sharp, format: ImageFormat, quality: Quality = 'medium'): Sharp {
  const q = { low: 0, medium: 1, high: 2 }[quality];
  switch (format) {
    case 'jpeg':
      return image.jpeg({
        quality: [70, 85, 94][q],
        mozjpeg: q === 2,
        chromaSubsampling: q === 2 ? '4:4:4' : '4:2:0',
      });
    case 'webp':
      return image.webp({ quality: [70, 85, 94][q], effort: [2, 4, 6][q] });
    default:
      return image.png({ compressionLevel: [3, 6, 9][q], effort: [3, 7, 10][q] });
  }
}

/** Encodes `image` into `<workDir>/<name>.<ext>` and describes the file. */
export async function writeImage(
  image: Sharp,
  workDir: string,
  name: string,
  format: ImageFormat,
  quality?: Quality,
): Promise<OutputFile> {
  const ext = format;
  const path = join(workDir, `${name}.${ext}`);
  await applyFormat(image, format, quality).toFile(path);
  return { path, mime: IMAGE_MIME[format], ext };
}
