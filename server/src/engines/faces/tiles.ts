/**
 * Where to look for faces besides the whole picture. The detector (BlazeFace) sees any input squeezed to
 * 256 px, so small faces in a wide group photo vanish; running it again on a few overlapping square
 * tiles (0.6 of the picture's longer side, at most its shorter side, a quarter overlap) finds them. BlazeFace
 * also enlarges what it is given to 256 px, so a small picture's tiles are looked at closer than the whole:
 * in a 512x217 thumbnail a 50 px face is 25 px in the whole picture's view and 59 px in a 217 px tile's.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Tiles smaller than this are not searched: the detector already enlarges a 64 px tile 4x, and a face that
 * fits one whole is too small for FaceMesh's landmarks. (A 200 px thumbnail gets four 120 px tiles.)
 */
const MIN_TILE = 64;
/** Tile side relative to the picture's longer side. */
const TILE_FRACTION = 0.6;
/** Step between tiles relative to the tile side (0.75 = a quarter overlap). */
const STEP = 0.75;

function starts(length: number, side: number): number[] {
  if (length <= side * 1.05) return [0];
  const count = Math.ceil((length - side) / (side * STEP)) + 1;
  return Array.from({ length: count }, (_, i) => Math.round(((length - side) * i) / (count - 1)));
}

/** The tiles of a picture of width x height as the detector sees it. */
export function tilesFor(width: number, height: number): Rect[] {
  const side = Math.round(Math.min(width, height, Math.max(width, height) * TILE_FRACTION));
  if (side < MIN_TILE) return [];
  const xs = starts(width, side);
  const ys = starts(height, side);
  if (xs.length * ys.length <= 1) return [];
  return ys.flatMap((y) =>
    xs.map((x) => ({ x, y, width: Math.min(side, width - x), height: Math.min(side, height - y) })),
  );
}

/**
 * A face of the whole picture at least this big relative to the picture on both axes (box width over
 * picture width and box height over picture height) fills the picture: a portrait, a selfie. Measured on
 * the fixtures at 128-2400 px (docs/faces.md, "Detection", step 4): the largest face of the group picture
 * is 0.21-0.30 of it, Grace Hopper's portrait 0.47-0.49, the astronaut's 0.27-0.30 (tiled).
 */
export const FILLS_PICTURE = 0.4;

/**
 * Whether a picture needs the tile pass, given the faces of the whole-picture pass that are certain (boxes
 * in the same pixels as width x height). BlazeFace squeezes the whole picture to 256x256, so a face's size
 * in its view is its box over the picture's, per axis. When one face fills the picture (FILLS_PICTURE,
 * about 100 px or more of the detector's 256), any other face of such a photo is large enough for the
 * whole-picture view too; a picture with no face, or only smaller ones (a group, a crowd, a far shot, a
 * half-length portrait), is searched in tiles.
 */
export function tilesNeeded(faces: readonly { box: Rect }[], width: number, height: number): boolean {
  return !faces.some((f) => Math.min(f.box.width / width, f.box.height / height) >= FILLS_PICTURE);
}
