/** Face swap into a still image (png, jpeg, webp): same size, same format, alpha channel kept. */
import { join } from 'node:path';
import sharp from 'sharp';
import { EngineError, type EngineOutput } from '../types.js';
import { findFaces } from './faceDetector.js';
import type { StillFormat } from './outputFormat.js';
import { readRgb } from './readRgb.js';
import type { RgbImage } from './rgbImage.js';
import type { SourceFace } from './sourceFace.js';
import { swapFrame } from './swapFrame.js';

export async function swapImage(
  source: SourceFace,
  targetPath: string,
  format: StillFormat,
  workDir: string,
  signal: AbortSignal,
): Promise<EngineOutput> {
  let target: RgbImage;
  try {
    target = await readRgb(targetPath);
  } catch {
    throw new EngineError('target_media could not be decoded as an image');
  }
  signal.throwIfAborted();
  const faces = (await findFaces(target)).filter((f) => f.mesh.length > 0);
  if (faces.length === 0) throw new EngineError('No face found in target_media: nothing to swap');
  swapFrame(target, faces, source);
  signal.throwIfAborted();

  const input = sharp(targetPath).rotate();
  const { hasAlpha } = await input.metadata();
  let out = sharp(target.data, { raw: { width: target.width, height: target.height, channels: 3 } });
  if (hasAlpha) {
    const alpha = await sharp(targetPath).rotate().extractChannel('alpha').raw().toBuffer();
    out = out.joinChannel(alpha, { raw: { width: target.width, height: target.height, channels: 1 } });
  }
  const path = join(workDir, `face-swap.${format.ext}`);
  await (
    format.format === 'jpeg'
      ? out.jpeg({ quality: 92 })
      : format.format === 'webp'
        ? out.webp({ quality: 92 })
        : out.png()
  ).toFile(path);
  return { type: 'image', files: [{ path, mime: format.mime, ext: format.ext }] };
}
