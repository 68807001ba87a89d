/** POST /face-swap/detect's engine (spec 4.4): every face of an image, cropped with a margin, largest first. */
import { EngineError, type DetectedFace, type DetectFaces } from '../types.js';
import { crop } from './crop.js';
import { findFaces } from './faceDetector.js';
import { readRgb } from './readRgb.js';
import type { RgbImage } from './rgbImage.js';

export const detectFaces: DetectFaces = async (imagePath, signal) => {
  signal?.throwIfAborted();
  let image: RgbImage;
  try {
    image = await readRgb(imagePath);
  } catch {
    throw new EngineError('source_image could not be decoded as an image (jpg, png, webp or gif)');
  }
  signal?.throwIfAborted();
  // Detection answers crops of the boxes: no landmarks needed for faces found only in tiles.
  const faces = await findFaces(image, { landmarks: false });
  signal?.throwIfAborted();
  // The crops are encoded side by side (sharp works off the event loop, on libuv's threads).
  const crops = await Promise.all(faces.map((face) => crop(image, face.box)));
  return faces.map((face, i): DetectedFace => ({ box: face.box, score: face.score, crop: crops[i]! }));
};
