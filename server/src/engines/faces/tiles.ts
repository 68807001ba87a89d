/**
 * Where to look for faces besides the whole picture. The detector (BlazeFace) sees any input squeezed to
 * 256 px, so small faces in a wide group photo vanish; running it again on a few overlapping square
 * tiles (0.6 of the picture's longer side, a quarter overlap) finds them. Small pictures get no tiles.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Tiles smaller than this add nothing: the whole picture is already seen at about this size. */
const MIN_TILE = 128;
/**
 * Pictures up to this size get no tiles: squeezed to 256 px they still show every face of 50 px or
 * more, and each tile costs one more detector run.
 */
const MIN_SIDE_FOR_TILES = 600;
/** Tile side relative to the picture's longer side. */
const TILE_FRACTION = 0.6;
/** Step between tiles relative to the tile side (0.75 = a quarter overlap). */
const STEP = 0.75;

function starts(length: number, side: number): number[] {
  if (length <= side * 1.05) return [0];
  const count = Math.ceil((length - side) / (side * STEP)) + 1;
  return Array.from({ length: count }, (_, i) => Math.round(((length - side) * i) / (count - 1)));
}

export function tilesFor(width: number, height: number): Rect[] {
  if (Math.max(width, height) <= MIN_SIDE_FOR_TILES) return [];
  const side = Math.round(Math.min(width, height, Math.max(width, height) * TILE_FRACTION));
  if (side < MIN_TILE) return [];
  const xs = starts(width, side);
  const ys = starts(height, side);
  if (xs.length * ys.length <= 1) return [];
  return ys.flatMap((y) =>
    xs.map((x) => ({ x, y, width: Math.min(side, width - x), height: Math.min(side, height - y) })),
  );
}
