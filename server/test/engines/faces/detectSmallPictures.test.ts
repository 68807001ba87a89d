/**
 * detectFaces on small pictures (thumbnails, chat images): the faces of a group picture of 300-640 px are
 * 25-60 px, too small for the whole-picture pass (BlazeFace sees every input squeezed to 256 px), so the
 * detector must look closer; and looking closer must not turn a rocket, a cat or a brick wall into a face.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, warmUpFaces } from '../../../src/engines/faces/index.js';
import type { DetectedFace } from '../../../src/engines/types.js';
import { fixture, MODERATION_FIXTURES, NO_FACE_PHOTOS } from './fixtures.js';

let dir: string;
let made = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-small-'));
  await warmUpFaces();
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The picture shrunk to fit in `side` x `side` (never enlarged), saved as a JPEG as a thumbnail would be. */
async function thumbnail(
  path: string,
  side: number,
): Promise<{ path: string; width: number; height: number }> {
  const { data, info } = await sharp(path)
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  const out = join(dir, `thumb-${made++}.jpg`);
  await writeFile(out, data);
  return { path: out, width: info.width, height: info.height };
}

/**
 * Where a real face is, as fractions of the picture's width and height: its box's centre and size,
 * measured on the full-size fixtures (group-three.jpg 898x380, the portraits 512 px).
 */
interface KnownFace {
  name: string;
  cx: number;
  cy: number;
  size: number;
}

/** The composite's three panels, largest face first: Grace Hopper, the astronaut, the cameraman. */
const GROUP: KnownFace[] = [
  { name: 'Grace Hopper (middle panel)', cx: 0.524, cy: 0.391, size: 0.224 },
  { name: 'the astronaut (left panel)', cx: 0.159, cy: 0.342, size: 0.126 },
  { name: 'the cameraman (right panel)', cx: 0.826, cy: 0.421, size: 0.098 },
];

/** Expects `face` (in a picture of width x height) to be the box around `known`. */
function expectAround(face: DetectedFace, known: KnownFace, width: number, height: number) {
  const { x, y, width: w, height: h } = face.box;
  const where = `${known.name}: box ${x},${y} ${w}x${h} in ${width}x${height}`;
  expect(Math.abs((x + w / 2) / width - known.cx), where).toBeLessThan(0.05);
  expect(Math.abs((y + h / 2) / height - known.cy), where).toBeLessThan(0.1);
  expect(w / width / known.size, where).toBeGreaterThan(0.6);
  expect(w / width / known.size, where).toBeLessThan(1.6);
}

describe('detectFaces on small pictures', () => {
  it('finds all three faces of the 512x217 group composite, largest first, each around its real face', async () => {
    const path = join(MODERATION_FIXTURES, 'group-composite.jpg');
    const { width, height } = await sharp(path).metadata();
    expect([width, height]).toEqual([512, 217]);
    const faces = await detectFaces(path);
    expect(faces.map((f) => `${f.box.x},${f.box.y} ${f.box.width}x${f.box.height}`)).toHaveLength(3);
    GROUP.forEach((known, i) => expectAround(faces[i]!, known, width!, height!));
    for (const face of faces) {
      // Crops are cut from the picture itself: a margin around the box, never beyond the picture.
      const crop = await sharp(face.crop).metadata();
      expect(crop.width).toBeGreaterThan(face.box.width);
      expect(crop.width).toBeLessThanOrEqual(width!);
      expect(crop.height).toBeLessThanOrEqual(height!);
    }
  }, 120_000);

  it.each([300, 384, 448, 640])(
    'finds the same three faces when the group picture is %i px wide',
    async (side) => {
      const picture = await thumbnail(fixture('group-three.jpg'), side);
      const faces = await detectFaces(picture.path);
      expect(faces.map((f) => `${f.box.x},${f.box.y} ${f.box.width}x${f.box.height}`)).toHaveLength(3);
      // Largest first. At 300 px the astronaut's and the cameraman's faces are both about 30 px and either
      // box may come out a pixel larger, so each face is matched to its panel by position.
      const areas = faces.map((f) => f.box.width * f.box.height);
      expect(areas).toEqual([...areas].sort((a, b) => b - a));
      expectAround(faces[0]!, GROUP[0]!, picture.width, picture.height);
      for (const known of GROUP.slice(1)) {
        const face = faces
          .slice(1)
          .find((f) => Math.abs((f.box.x + f.box.width / 2) / picture.width - known.cx) < 0.1);
        expect(face, known.name).toBeDefined();
        expectAround(face!, known, picture.width, picture.height);
      }
    },
    120_000,
  );

  const PORTRAITS: [string, KnownFace][] = [
    ['portrait-hopper.jpg', { name: 'Grace Hopper', cx: 0.51, cy: 0.385, size: 0.555 }],
    ['portrait-astronaut.jpg', { name: 'the astronaut', cx: 0.438, cy: 0.239, size: 0.283 }],
    // Partly hidden behind his camera: the hardest of the three when small.
    ['portrait-cameraman.jpg', { name: 'the cameraman', cx: 0.438, cy: 0.324, size: 0.195 }],
  ];
  it.each(PORTRAITS.flatMap(([file, known]) => [128, 200, 320].map((side) => [file, side, known] as const)))(
    'finds exactly one face in %s shrunk to %i px',
    async (file, side, known) => {
      const picture = await thumbnail(fixture(file), side);
      const faces = await detectFaces(picture.path);
      expect(faces).toHaveLength(1);
      expectAround(faces[0]!, known, picture.width, picture.height);
    },
    120_000,
  );

  it.each(NO_FACE_PHOTOS.map((path) => [path.split('/').at(-1)!, path]))(
    'finds no face in %s, at its own size and shrunk to 160-600 px',
    async (_name, path) => {
      const { width, height } = await sharp(path).metadata();
      const sides = [160, 240, 320, 400, 600].filter((side) => side < Math.max(width!, height!));
      const found: string[] = [];
      for (const side of [...sides, 0]) {
        const picture = side === 0 ? { path, width: width!, height: height! } : await thumbnail(path, side);
        const faces = await detectFaces(picture.path);
        for (const f of faces) {
          found.push(
            `${picture.width}x${picture.height}: ${f.box.x},${f.box.y} ${f.box.width}x${f.box.height}`,
          );
        }
      }
      expect(found).toEqual([]);
    },
    300_000,
  );
});
