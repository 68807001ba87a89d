/** Paths and pixel helpers shared by the faces engine tests (not a test file itself). */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { detectFaces, warmUpFaces } from '../../../src/engines/faces/index.js';

export const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/faces/', import.meta.url));
export const fixture = (name: string): string => FIXTURES + name;
/** The moderation fixtures: ordinary photos (rocket, cat, coffee...) and the small group composite. */
export const MODERATION_FIXTURES = fileURLToPath(
  new URL('../../../../test/fixtures/moderation/', import.meta.url),
);

/** Photos with no person in them: the faces fixtures' own and the moderation fixtures' ordinary photos. */
export const NO_FACE_PHOTOS: readonly string[] = [
  fixture('no-face-rocket.jpg'),
  fixture('no-face-coffee.jpg'),
  fixture('no-face-cat.jpg'),
  ...['rocket.jpg', 'chelsea-cat.jpg', 'coffee.jpg', 'brick-wall.jpg', 'dandelions.jpg'].map(
    (name) => MODERATION_FIXTURES + name,
  ),
];

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function raw(input: string | Buffer): Promise<Raw> {
  const { data, info } = await sharp(input)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Mean absolute difference per channel value between two same-sized pictures, inside a rectangle. */
export function meanDiff(
  a: Raw,
  b: Raw,
  rect: { x: number; y: number; width: number; height: number },
): number {
  let sum = 0;
  let n = 0;
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    for (let x = rect.x; x < rect.x + rect.width; x++) {
      const o = (y * a.width + x) * a.channels;
      for (let c = 0; c < a.channels; c++) {
        sum += Math.abs(a.data[o + c]! - b.data[o + c]!);
        n++;
      }
    }
  }
  return n > 0 ? sum / n : 0;
}

/** The middle half of a face box: certainly covered by the swapped face. */
export function inner(box: { x: number; y: number; width: number; height: number }) {
  return {
    x: Math.round(box.x + box.width / 4),
    y: Math.round(box.y + box.height / 4),
    width: Math.round(box.width / 2),
    height: Math.round(box.height / 2),
  };
}

/**
 * Warms the detector and writes the source face the swap tests use into `dir`: what detect hands out,
 * Grace Hopper's face cropped from her portrait. Answers its path.
 */
export async function writeHopperFace(dir: string): Promise<string> {
  await warmUpFaces();
  const [hopper] = await detectFaces(fixture('portrait-hopper.jpg'));
  const path = join(dir, 'source-face.png');
  await writeFile(path, hopper!.crop);
  return path;
}
