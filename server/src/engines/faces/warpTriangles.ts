/**
 * Piecewise-affine warp: every triangle of the face mesh is mapped from its place on the source face to
 * its place on the target face. Each target pixel inside a triangle is mapped back into the source with
 * that triangle's affine transform and sampled bilinearly (inverse mapping, so no holes).
 */
import type { FacePatch } from './facePatch.js';
import type { RgbImage } from './rgbImage.js';

export function warpTriangles(
  source: RgbImage,
  sourceMesh: Float32Array,
  targetMesh: Float32Array,
  triangles: ArrayLike<number>,
  target: { width: number; height: number },
): FacePatch | undefined {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < targetMesh.length; i += 2) {
    const x = targetMesh[i]!;
    const y = targetMesh[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const left = Math.max(0, Math.floor(minX));
  const top = Math.max(0, Math.floor(minY));
  const right = Math.min(target.width, Math.ceil(maxX) + 1);
  const bottom = Math.min(target.height, Math.ceil(maxY) + 1);
  const width = right - left;
  const height = bottom - top;
  if (width < 2 || height < 2) return undefined;

  const rgb = new Float32Array(width * height * 3);
  const coverage = new Uint8Array(width * height);
  const src = source.data;
  const sw = source.width;
  const maxSx = source.width - 1.001;
  const maxSy = source.height - 1.001;
  const eps = 1e-4;

  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = triangles[t]! * 2;
    const b = triangles[t + 1]! * 2;
    const c = triangles[t + 2]! * 2;
    const dx0 = targetMesh[a]!;
    const dy0 = targetMesh[a + 1]!;
    const e1x = targetMesh[b]! - dx0;
    const e1y = targetMesh[b + 1]! - dy0;
    const e2x = targetMesh[c]! - dx0;
    const e2y = targetMesh[c + 1]! - dy0;
    const det = e1x * e2y - e2x * e1y;
    if (Math.abs(det) < 1e-6) continue;
    const inv = 1 / det;
    const sx0 = sourceMesh[a]!;
    const sy0 = sourceMesh[a + 1]!;
    const f1x = sourceMesh[b]! - sx0;
    const f1y = sourceMesh[b + 1]! - sy0;
    const f2x = sourceMesh[c]! - sx0;
    const f2y = sourceMesh[c + 1]! - sy0;

    const tx0 = Math.max(left, Math.floor(Math.min(dx0, dx0 + e1x, dx0 + e2x)));
    const tx1 = Math.min(right - 1, Math.ceil(Math.max(dx0, dx0 + e1x, dx0 + e2x)));
    const ty0 = Math.max(top, Math.floor(Math.min(dy0, dy0 + e1y, dy0 + e2y)));
    const ty1 = Math.min(bottom - 1, Math.ceil(Math.max(dy0, dy0 + e1y, dy0 + e2y)));

    for (let y = ty0; y <= ty1; y++) {
      const py = y - dy0;
      for (let x = tx0; x <= tx1; x++) {
        const px = x - dx0;
        // Barycentric coordinates of (x, y) along the triangle's two edges.
        const u = (px * e2y - py * e2x) * inv;
        const v = (py * e1x - px * e1y) * inv;
        if (u < -eps || v < -eps || u + v > 1 + eps) continue;
        let sx = sx0 + u * f1x + v * f2x;
        let sy = sy0 + u * f1y + v * f2y;
        sx = sx < 0 ? 0 : sx > maxSx ? maxSx : sx;
        sy = sy < 0 ? 0 : sy > maxSy ? maxSy : sy;
        const ix = sx | 0;
        const iy = sy | 0;
        const fx = sx - ix;
        const fy = sy - iy;
        const p00 = (iy * sw + ix) * 3;
        const p10 = p00 + 3;
        const p01 = p00 + sw * 3;
        const p11 = p01 + 3;
        const w00 = (1 - fx) * (1 - fy);
        const w10 = fx * (1 - fy);
        const w01 = (1 - fx) * fy;
        const w11 = fx * fy;
        const o = (y - top) * width + (x - left);
        const q = o * 3;
        rgb[q] = src[p00]! * w00 + src[p10]! * w10 + src[p01]! * w01 + src[p11]! * w11;
        rgb[q + 1] = src[p00 + 1]! * w00 + src[p10 + 1]! * w10 + src[p01 + 1]! * w01 + src[p11 + 1]! * w11;
        rgb[q + 2] = src[p00 + 2]! * w00 + src[p10 + 2]! * w10 + src[p01 + 2]! * w01 + src[p11 + 2]! * w11;
        coverage[o] = 1;
      }
    }
  }
  return { left, top, width, height, rgb, coverage };
}
