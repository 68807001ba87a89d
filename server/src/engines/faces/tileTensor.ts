/**
 * A tile of a picture as a tensor of its own ([height, width, 3], int32, as the whole picture's tensor),
 * its rows copied in JavaScript. tfjs's WASM backend slices a 3-d tensor element by element in
 * JavaScript: the three tiles of the 1 MP group cost 20 ms that way, as much as the three detector runs
 * on them; copying the rows costs about 1 ms a tile.
 */
import type { Human, Tensor3D } from '@vladmandic/human';
import type { RgbImage } from './rgbImage.js';
import type { Rect } from './tiles.js';

export function tileTensor(tf: Human['tf'], picture: RgbImage, tile: Rect): Tensor3D {
  const pixels = new Int32Array(tile.width * tile.height * 3);
  const row = tile.width * 3;
  for (let y = 0; y < tile.height; y++) {
    const from = ((tile.y + y) * picture.width + tile.x) * 3;
    // set() converts the bytes to int32 as it copies.
    pixels.set(picture.data.subarray(from, from + row), y * row);
  }
  return tf.tensor3d(pixels, [tile.height, tile.width, 3], 'int32');
}
