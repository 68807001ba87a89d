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
/**
 * A picture the detector already shrank (downscale.ts) to this size or less gets no tiles: those are the
 * 960-1200 px photos (1 MP portraits), whose cost was kept as it was. See docs/faces.md, "Known limits".
 */
const MIN_SHRUNK_SIDE_FOR_TILES = 600;
/** Tile side relative to the picture's longer side. */
const TILE_FRACTION = 0.6;
/** Step between tiles relative to the tile side (0.75 = a quarter overlap). */
const STEP = 0.75;

function starts(length: number, side: number): number[] {
  if (length <= side * 1.05) return [0];
  const count = Math.ceil((length - side) / (side * STEP)) + 1;
  return Array.from({ length: count }, (_, i) => Math.round(((length - side) * i) / (count - 1)));
}

/** The tiles of a picture of width x height as the detector sees it; `shrunk`: downscale.ts shrank it. */
export function tilesFor(width: number, height: number, shrunk = false): Rect[] {
  if (shrunk && Math.max(width, height) <= MIN_SHRUNK_SIDE_FOR_TILES) return [];
  const side = Math.round(Math.min(width, height, Math.max(width, height) * TILE_FRACTION));
  if (side < MIN_TILE) return [];
  const xs = starts(width, side);
  const ys = starts(height, side);
  if (xs.length * ys.length <= 1) return [];
  return ys.flatMap((y) =>
    xs.map((x) => ({ x, y, width: Math.min(side, width - x), height: Math.min(side, height - y) })),
  );
}
