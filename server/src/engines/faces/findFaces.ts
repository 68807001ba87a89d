/**
 * Runs the detector on one decoded picture and returns every face, largest first.
 *
 * 1. The whole picture: BlazeFace boxes plus FaceMesh landmarks for each face.
 * 2. For still images, overlapping tiles (see tiles.ts), box detector only: BlazeFace sees any input
 *    squeezed to 256 px, so small faces (a group photo, a thumbnail) are only found there. A tile that
 *    shows a face not already known is run once more with landmarks. Skipped when the whole picture
 *    showed a certain face that fills it (tilesNeeded: a portrait, a selfie), whatever the picture's size.
 *    When only boxes are wanted (detection, `landmarks: false`) the tile's box is kept as it is.
 * 3. In a picture searched in tiles, a face found in the whole picture must also pass the tile bar seen up
 *    close: a tile that shows it whole, or else one box-only run on a square around it (closer look).
 *    From far away the landmark model calls a rocket's nose cone or a galaxy a face (0.9-0.99) and the box
 *    detector a cat's head (0.8); up close those score 0.4-0.77 and every real face 0.83 or more.
 * Pictures bigger than `maxSide` are first shrunk by an integer factor (downscale.ts) and the results
 * scaled back to the picture's pixels (cheap per-frame work for video). Every detector run goes through
 * blazeFace.ts: BlazeFace on onnxruntime, and for runs with landmarks Human's FaceMesh after it.
 */
import type { FaceResult, Human, Tensor3D } from '@vladmandic/human';
import { downscale } from './downscale.js';
import { MESH_POINTS, type FaceGeometry } from './faceGeometry.js';
import { blazeFace } from './blazeFace.js';
import { human } from './human.js';
import type { RgbImage } from './rgbImage.js';
import { SerialQueue } from './serialQueue.js';
import { tileTensor } from './tileTensor.js';
import { tilesFor, tilesNeeded, type Rect } from './tiles.js';

const queue = new SerialQueue();

/**
 * Default longest side the detector sees. BlazeFace itself works at 256 px and FaceMesh on 192 px crops,
 * so a 1 MP photo shrunk by 2 loses little they use and costs a quarter of the tensor work (small faces
 * are found by the tiles, which are cut from the shrunk picture but zoomed by the detector).
 */
export const DETECT_MAX_SIDE = 640;

/**
 * In the whole picture a face is kept when its landmarks are near certain (an unhidden face: 1.0; a
 * rocket's nose cone: 0.84) or its detector box is confident (people: 0.35-0.95, half-seen clutter under
 * 0.35). A partly hidden face (landmarks about 0.4) is kept by its box.
 */
const MIN_MESH_SCORE = 0.9;
const MIN_BOX_SCORE = 0.5;
/** Least detector box score for a face found only in a tile (a cat's face scores about 0.6, people 0.9+). */
const TILE_MIN_BOX_SCORE = 0.8;

/** Overlap (relative to the smaller box) above which two detections are the same face. */
const SAME_FACE = 0.4;

/**
 * The closer look at a face of the whole picture that no tile showed whole: a square this many times the
 * face's box, centred on it (grey beyond the picture's edges), seen by the box detector at its own 256 px.
 * At 3x real faces of 30-280 px scored 0.83-0.95 and the false ones 0.41-0.77; at 2x and 1.5x the two
 * overlapped.
 */
const CLOSER_LOOK_FRAME = 3;
const CLOSER_LOOK_SIDE = 256;

export interface FindFacesOptions {
  /** Longest side the picture is shrunk to (by an integer factor) before detection. */
  maxSide?: number;
  /**
   * Also search overlapping tiles (finds small faces in group photos): true (the default) when the
   * whole-picture pass found no face that fills the picture (tiles.ts, tilesNeeded); 'always' whatever it
   * found (measurements, benchmarks); false never (video and GIF frames, swap sources).
   */
  tiles?: boolean | 'always';
  /**
   * Whether every face needs FaceMesh's landmarks: true (the default) for a swap, which warps them. False
   * for detection alone (POST /face-swap/detect answers crops of the boxes): a tile that shows a new face
   * is not run a second time with landmarks, and that face keeps the detector's box and no mesh.
   */
  landmarks?: boolean;
}

export async function findFaces(image: RgbImage, options: FindFacesOptions = {}): Promise<FaceGeometry[]> {
  const { maxSide = DETECT_MAX_SIDE, tiles = true, landmarks = true } = options;
  const h = await human();
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / maxSide));
  const small = downscale(image, factor);
  return queue.run(async () => {
    const picture = h.tf.tensor3d(small.data, [small.height, small.width, 3], 'int32');
    try {
      const whole = { x: 0, y: 0, width: small.width, height: small.height };
      const fromWhole = await detectIn(picture, whole, small, true);
      // Only an unhidden face (landmarks near certain) may spare the tiles: a cat's head filling a
      // thumbnail scores 0.8 on the box and 0.34 on landmarks, and the closer look must see it.
      const certain = fromWhole.filter((face) => face.score >= MIN_MESH_SCORE);
      const searchTiles = tiles === 'always' || (tiles && tilesNeeded(certain, small.width, small.height));
      const areas = searchTiles ? tilesFor(small.width, small.height) : [];
      const found = [...fromWhole];
      /** Confident, uncut tile boxes: each confirms a face of the whole picture that it overlaps. */
      const seenInTiles: FaceGeometry[] = [];
      for (const tile of areas) {
        const part = tileTensor(h.tf, small, tile);
        try {
          const isNew = (face: FaceGeometry) =>
            !found.some((known) => overlap(known.box, face.box) > SAME_FACE);
          const boxes = await detectIn(part, tile, small, false);
          seenInTiles.push(...boxes);
          if (!landmarks) {
            for (const face of boxes) if (isNew(face)) found.push(face);
            continue;
          }
          const candidates = boxes.filter(isNew);
          if (candidates.length === 0) continue;
          // Only a tile that shows a new face pays for a second run, with landmarks.
          const meshed = await detectIn(part, tile, small, true);
          for (const face of candidates) {
            found.push(meshed.find((m) => overlap(m.box, face.box) > SAME_FACE && isNew(m)) ?? face);
          }
        } finally {
          h.tf.dispose(part);
        }
      }
      const unconfirmed = new Set<FaceGeometry>();
      if (areas.length > 0) {
        for (const face of fromWhole) {
          if (seenInTiles.some((seen) => overlap(seen.box, face.box) > SAME_FACE)) continue;
          if (!(await confirmedUpClose(h, picture, small, face))) unconfirmed.add(face);
        }
      }
      return found
        .filter((face) => !unconfirmed.has(face))
        .map((face) => toPicture(face, factor, image))
        .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
    } finally {
      h.tf.dispose(picture);
    }
  });
}

/** What one detector run answers for a face: Human's, or the box detector's box with no mesh (faceScore 0). */
type DetectorFace = Pick<FaceResult, 'box' | 'boxScore' | 'faceScore' | 'score' | 'mesh'>;

/**
 * Detects in one tensor that shows `at` of the picture; results in the picture's pixels. In tiles, faces
 * cut by an inner tile edge and unconfident boxes are dropped.
 */
async function detectIn(
  input: Tensor3D,
  at: Rect,
  picture: { width: number; height: number },
  mesh: boolean,
): Promise<FaceGeometry[]> {
  const found: DetectorFace[] = mesh
    ? await withLandmarks(input)
    : (await (await blazeFace()).boxes(input)).map((f) => ({
        ...f,
        faceScore: 0,
        score: f.boxScore,
        mesh: [],
      }));
  const inTile = at.width < picture.width || at.height < picture.height;
  const faces: FaceGeometry[] = [];
  for (const face of found) {
    const [x, y, w, hh] = face.box;
    if (inTile) {
      const cut =
        (at.x > 0 && x <= 2) ||
        (at.y > 0 && y <= 2) ||
        (at.x + at.width < picture.width && x + w >= at.width - 2) ||
        (at.y + at.height < picture.height && y + hh >= at.height - 2);
      if (cut || face.boxScore < TILE_MIN_BOX_SCORE) continue;
    } else if (face.faceScore < MIN_MESH_SCORE && face.boxScore < MIN_BOX_SCORE) {
      continue;
    }
    const points = new Float32Array(face.mesh.length === MESH_POINTS ? MESH_POINTS * 2 : 0);
    if (points.length > 0) {
      face.mesh.forEach((point, i) => {
        points[i * 2] = point[0] + at.x;
        points[i * 2 + 1] = point[1] + at.y;
      });
    }
    faces.push({ box: { x: x + at.x, y: y + at.y, width: w, height: hh }, score: face.score, mesh: points });
  }
  return faces;
}

/**
 * A detector run with FaceMesh's landmarks: Human's whole pipeline (BlazeFace, then FaceMesh on each face),
 * its BlazeFace pass on onnxruntime (blazeFace.ts).
 */
async function withLandmarks(input: Tensor3D) {
  return (await blazeFace()).detectWithLandmarks(input);
}

/**
 * The closer look (CLOSER_LOOK_FRAME): does the box detector, shown a square around `face` at its own
 * input size, find a face there with the confidence a tile face needs?
 */
async function confirmedUpClose(
  h: Human,
  picture: Tensor3D,
  size: { width: number; height: number },
  face: FaceGeometry,
): Promise<boolean> {
  const { x, y, width, height } = face.box;
  const side = Math.max(width, height) * CLOSER_LOOK_FRAME;
  const left = x + width / 2 - side / 2;
  const top = y + height / 2 - side / 2;
  // cropAndResize takes the square in 0..1 picture coordinates and fills what lies outside with grey.
  const square = [
    [top / size.height, left / size.width, (top + side) / size.height, (left + side) / size.width],
  ];
  const view = h.tf.tidy(() =>
    h.tf.image
      .cropAndResize(
        h.tf.expandDims(picture, 0),
        square,
        [0],
        [CLOSER_LOOK_SIDE, CLOSER_LOOK_SIDE],
        'bilinear',
        128,
      )
      .squeeze([0]),
  ) as Tensor3D;
  try {
    const scale = side / CLOSER_LOOK_SIDE;
    const seenUpClose = await (await blazeFace()).boxes(view);
    return seenUpClose.some((seen) => {
      const [sx, sy, sw, sh] = seen.box;
      const box = { x: left + sx * scale, y: top + sy * scale, width: sw * scale, height: sh * scale };
      return seen.boxScore >= TILE_MIN_BOX_SCORE && overlap(box, face.box) > SAME_FACE;
    });
  } finally {
    h.tf.dispose(view);
  }
}

/** Intersection over the smaller box's area. */
function overlap(a: FaceGeometry['box'], b: FaceGeometry['box']): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return smaller > 0 ? (ix * iy) / smaller : 0;
}

function toPicture(face: FaceGeometry, factor: number, image: RgbImage): FaceGeometry {
  const mesh = factor === 1 ? face.mesh : face.mesh.map((v) => v * factor);
  const { x, y, width, height } = face.box;
  const left = Math.max(0, Math.round(x * factor));
  const top = Math.max(0, Math.round(y * factor));
  const right = Math.min(image.width, Math.round((x + width) * factor));
  const bottom = Math.min(image.height, Math.round((y + height) * factor));
  return {
    box: { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) },
    score: face.score,
    mesh,
  };
}
