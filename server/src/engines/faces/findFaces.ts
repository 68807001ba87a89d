/**
 * Runs the detector on one decoded picture and returns every face, largest first. The whole picture is
 * searched, then (for still images) overlapping tiles so that small faces in group photos are found too;
 * duplicates are merged. Pictures bigger than `maxSide` are scaled down inside TensorFlow before
 * detection (cheap per-frame work for video) and the results scaled back to the picture's pixels.
 */
import type { Human, Tensor3D } from '@vladmandic/human';
import { MESH_POINTS, type FaceGeometry } from './faceGeometry.js';
import { human } from './human.js';
import type { RgbImage } from './rgbImage.js';
import { SerialQueue } from './serialQueue.js';
import { tilesFor, type Rect } from './tiles.js';

const queue = new SerialQueue();

/** Default longest side the detector sees; BlazeFace itself works at 256 px, FaceMesh on 192 px crops. */
export const DETECT_MAX_SIDE = 1280;

/** Least detector box score for a face found only in a tile. */
const TILE_MIN_BOX_SCORE = 0.8;

export interface FindFacesOptions {
  /** Longest side the picture is scaled to before detection. */
  maxSide?: number;
  /** Also search overlapping tiles (finds small faces; costs one detector run per tile). */
  tiles?: boolean;
}

export async function findFaces(image: RgbImage, options: FindFacesOptions = {}): Promise<FaceGeometry[]> {
  const { maxSide = DETECT_MAX_SIDE, tiles = true } = options;
  const h = await human();
  return queue.run(async () => {
    const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
    const width = Math.round(image.width * scale);
    const height = Math.round(image.height * scale);
    const picture = h.tf.tidy(() => {
      const full = h.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
      if (scale === 1) return full;
      return h.tf.cast(h.tf.image.resizeBilinear(full, [height, width]), 'int32');
    }) as Tensor3D;
    try {
      const found: FaceGeometry[] = await detectIn(h, picture, { x: 0, y: 0, width, height }, width, height);
      for (const tile of tiles ? tilesFor(width, height) : []) {
        const part = h.tf.slice(picture, [tile.y, tile.x, 0], [tile.height, tile.width, 3]) as Tensor3D;
        try {
          found.push(...(await detectIn(h, part, tile, width, height)));
        } finally {
          h.tf.dispose(part);
        }
      }
      return merge(found)
        .map((face) => toPicture(face, 1 / scale, image))
        .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
    } finally {
      h.tf.dispose(picture);
    }
  });
}

/** Detects in one tensor; results in the (scaled) picture's pixels. Faces cut by an inner tile edge are dropped. */
async function detectIn(
  h: Human,
  input: Tensor3D,
  at: Rect,
  width: number,
  height: number,
): Promise<FaceGeometry[]> {
  const result = await h.detect(input);
  if (result.error) throw new Error(`face detector failed: ${result.error}`);
  const faces: FaceGeometry[] = [];
  for (const face of result.face) {
    const [x, y, w, hh] = face.box;
    const inTile = at.width < width || at.height < height;
    const cut =
      (at.x > 0 && x <= 2) ||
      (at.y > 0 && y <= 2) ||
      (at.x + at.width < width && x + w >= at.width - 2) ||
      (at.y + at.height < height && y + hh >= at.height - 2);
    if (cut) continue;
    // A tile shows the detector a zoomed-in part, where animal faces and textures fool it more often:
    // there only confident detector boxes count (a cat's face scores about 0.6, a person's above 0.9).
    if (inTile && face.boxScore < TILE_MIN_BOX_SCORE) continue;
    const mesh = new Float32Array(face.mesh.length === MESH_POINTS ? MESH_POINTS * 2 : 0);
    if (mesh.length > 0) {
      face.mesh.forEach((point, i) => {
        mesh[i * 2] = point[0] + at.x;
        mesh[i * 2 + 1] = point[1] + at.y;
      });
    }
    faces.push({ box: { x: x + at.x, y: y + at.y, width: w, height: hh }, score: face.score, mesh });
  }
  return faces;
}

function iou(a: FaceGeometry['box'], b: FaceGeometry['box']): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return smaller > 0 ? inter / smaller : 0;
}

/** One face per person: overlapping detections (whole picture and tiles) keep the best-scored one. */
function merge(faces: FaceGeometry[]): FaceGeometry[] {
  const kept: FaceGeometry[] = [];
  for (const face of [...faces].sort((a, b) => b.score - a.score || b.mesh.length - a.mesh.length)) {
    if (!kept.some((k) => iou(k.box, face.box) > 0.4)) kept.push(face);
  }
  return kept;
}

function toPicture(face: FaceGeometry, inv: number, image: RgbImage): FaceGeometry {
  const mesh = inv === 1 ? face.mesh : face.mesh.map((v) => v * inv);
  const { x, y, width, height } = face.box;
  const left = Math.max(0, Math.round(x * inv));
  const top = Math.max(0, Math.round(y * inv));
  const right = Math.min(image.width, Math.round((x + width) * inv));
  const bottom = Math.min(image.height, Math.round((y + height) * inv));
  return {
    box: { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) },
    score: face.score,
    mesh,
  };
}
