/**
 * Swaps the source face into every given face of one picture, in place: mesh warp, colour transfer,
 * feathered mask, alpha blend. Returns how many faces were swapped.
 */
import { colorTransfer } from './colorTransfer.js';
import type { FaceGeometry } from './faceGeometry.js';
import { featherMask } from './featherMask.js';
import type { RgbImage } from './rgbImage.js';
import type { SourceFace } from './sourceFace.js';
import { warpTriangles } from './warpTriangles.js';

/** Width of the soft edge, as a fraction of the face patch's larger side. */
const FEATHER = 0.06;

export function swapFrame(target: RgbImage, faces: readonly FaceGeometry[], source: SourceFace): number {
  let swapped = 0;
  for (const face of faces) {
    if (face.mesh.length === 0) continue;
    const patch = warpTriangles(source.image, source.mesh, face.mesh, source.triangles, target);
    if (!patch) continue;
    colorTransfer(patch, target);
    const alpha = featherMask(
      patch.coverage,
      patch.width,
      patch.height,
      Math.max(2, Math.max(patch.width, patch.height) * FEATHER),
    );
    const data = target.data;
    for (let y = 0; y < patch.height; y++) {
      for (let x = 0; x < patch.width; x++) {
        const o = y * patch.width + x;
        const a = alpha[o]!;
        if (a <= 0) continue;
        const t = ((patch.top + y) * target.width + patch.left + x) * 3;
        const q = o * 3;
        for (let c = 0; c < 3; c++) {
          const v = patch.rgb[q + c]! * a + data[t + c]! * (1 - a);
          data[t + c] = v < 0 ? 0 : v > 255 ? 255 : v + 0.5;
        }
      }
    }
    swapped++;
  }
  return swapped;
}
