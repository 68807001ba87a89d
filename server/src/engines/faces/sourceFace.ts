/**
 * The source face, prepared once per job and reused for every target face and every frame: decoded
 * pixels, the 468 landmarks of its largest face and the mesh triangulation.
 */
import { EngineError } from '../types.js';
import { findFaces } from './faceDetector.js';
import { human } from './human.js';
import { readRgb } from './readRgb.js';
import type { RgbImage } from './rgbImage.js';

export interface SourceFace {
  image: RgbImage;
  mesh: Float32Array;
  triangles: readonly number[];
}

export async function loadSourceFace(path: string): Promise<SourceFace> {
  let image: RgbImage;
  try {
    image = await readRgb(path);
  } catch {
    throw new EngineError(
      'source_face_url is not a readable image (expected a face crop from /face-swap/detect)',
    );
  }
  // The source is normally a crop from detect: one large face, which the whole picture shows. Tiles (and
  // their closer looks) would cost five more detector runs per job and find nothing a swap uses.
  const face = (await findFaces(image, { tiles: false })).find((f) => f.mesh.length > 0);
  if (!face)
    throw new EngineError('No face found in source_face_url: use a face URL returned by /face-swap/detect');
  const { faceTriangulation } = await human();
  return { image, mesh: face.mesh, triangles: faceTriangulation };
}
