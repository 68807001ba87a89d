/** tileTensor must give exactly the pixels tfjs's own slice gives, for every tile findFaces cuts. */
import type { Human } from '@vladmandic/human';
import { beforeAll, describe, expect, it } from 'vitest';
import { human } from '../../../src/engines/faces/human.js';
import { tileTensor } from '../../../src/engines/faces/tileTensor.js';
import { tilesFor } from '../../../src/engines/faces/tiles.js';

let h: Human;
beforeAll(async () => {
  h = await human();
}, 120_000);

describe('tileTensor', () => {
  it.each([
    [770, 326],
    [512, 512],
    [217, 512],
    [513, 217],
  ])('a %ix%i picture: every tile equals tf.slice of the whole picture', (width, height) => {
    // Every pixel different from its neighbours, so a shifted or transposed tile cannot match.
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + Math.floor(i / (width * 3)) * 13) % 251;
    const picture = { data, width, height };
    const whole = h.tf.tensor3d(data, [height, width, 3], 'int32');
    const tiles = tilesFor(width, height);
    expect(tiles.length).toBeGreaterThan(1);
    try {
      for (const tile of tiles) {
        const expected = h.tf.slice(whole, [tile.y, tile.x, 0], [tile.height, tile.width, 3]);
        const actual = tileTensor(h.tf, picture, tile);
        expect(actual.shape).toEqual(expected.shape);
        expect(actual.dtype).toBe('int32');
        expect(Array.from(actual.dataSync())).toEqual(Array.from(expected.dataSync()));
        h.tf.dispose([expected, actual]);
      }
    } finally {
      h.tf.dispose(whole);
    }
  });
});
