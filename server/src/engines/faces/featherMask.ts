/**
 * Turns the warp's hard coverage mask into a soft alpha that is 0 at the mask's edge and rises to 1 a
 * few pixels inside it (a separable box blur, then the upper half of the blurred ramp stretched to 0..1).
 * The seam between pasted face and target therefore fades out, and nothing outside the warped area
 * (where there is no source pixel) is ever used. Holes in the mesh (eyes, mouth) keep the target's pixels.
 */
export function featherMask(
  coverage: Uint8Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  const r = Math.max(1, Math.round(radius));
  const horizontal = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  const norm = 1 / (2 * r + 1);
  // Horizontal running sum (pixels outside the patch count as uncovered).
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let acc = 0;
    for (let x = -r; x <= r; x++) if (x >= 0 && x < width) acc += coverage[row + x]!;
    for (let x = 0; x < width; x++) {
      horizontal[row + x] = acc * norm;
      const add = x + r + 1;
      const drop = x - r;
      if (add < width) acc += coverage[row + add]!;
      if (drop >= 0) acc -= coverage[row + drop]!;
    }
  }
  // Vertical running sum, then the ramp: blurred 0.5 (the edge) -> 0, blurred 1 (well inside) -> 1.
  for (let x = 0; x < width; x++) {
    let acc = 0;
    for (let y = -r; y <= r; y++) if (y >= 0 && y < height) acc += horizontal[y * width + x]!;
    for (let y = 0; y < height; y++) {
      const o = y * width + x;
      const blurred = acc * norm;
      const alpha = coverage[o] ? (blurred - 0.5) * 2 : 0;
      out[o] = alpha <= 0 ? 0 : alpha >= 1 ? 1 : alpha;
      const add = y + r + 1;
      const drop = y - r;
      if (add < height) acc += horizontal[add * width + x]!;
      if (drop >= 0) acc -= horizontal[drop * width + x]!;
    }
  }
  return out;
}
