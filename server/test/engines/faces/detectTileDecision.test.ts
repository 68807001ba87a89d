/**
 * When detection searches tiles (findFaces.ts step 2): decided by what the whole-picture pass found, not by
 * the picture's size. A picture whose face fills it (a portrait, a selfie) keeps one detector run, at any
 * size; a group picture is tiled at any size, including the 960-1200 and 1600-1800 px widths that detection
 * shrinks to 600 px or less; and tiling more pictures must not turn a rocket, a cat or a brick wall into a
 * face.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFaces, type FindFacesOptions } from '../../../src/engines/faces/findFaces.js';
import { detectFaces, warmUpFaces } from '../../../src/engines/faces/index.js';
import { readRgb } from '../../../src/engines/faces/readRgb.js';
import { countDetectorRuns } from '../../../src/testing/countDetectorRuns.js';
import { fixture, MODERATION_FIXTURES, NO_FACE_PHOTOS } from './fixtures.js';

let dir: string;
let made = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-tiles-'));
  await warmUpFaces();
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The picture resized to `width` px wide (enlarged or shrunk, aspect kept), saved as a JPEG. */
async function resized(path: string, width: number): Promise<{ path: string; height: number }> {
  const { data, info } = await sharp(path)
    .resize({ width })
    .jpeg({ quality: 90 })
    .toBuffer({ resolveWithObject: true });
  const out = join(dir, `resized-${made++}.jpg`);
  await writeFile(out, data);
  return { path: out, height: info.height };
}

/** Detector calls one findFaces makes on the picture (counted on this thread's detector). */
async function detectorRuns(
  path: string,
  options: FindFacesOptions = {},
): Promise<{ runs: number; faces: number; centres: number[] }> {
  const image = await readRgb(path);
  const { result, runs } = await countDetectorRuns(() => findFaces(image, options));
  const centres = result.map((f) => (f.box.x + f.box.width / 2) / image.width).sort((a, b) => a - b);
  return { runs, faces: result.length, centres };
}

describe('detectFaces decides the tile pass by what the whole picture shows', () => {
  // The three panels left to right: the astronaut, Grace Hopper, the cameraman (face centres as fractions
  // of the width, measured on the 898x380 fixture).
  const CENTRES = [0.159, 0.524, 0.826];

  it.each([960, 1100, 1200, 1600])(
    'finds all three faces of the group picture enlarged to %i px wide',
    async (width) => {
      const picture = await resized(fixture('group-three.jpg'), width);
      const faces = await detectFaces(picture.path);
      const where = faces.map((f) => `${f.box.x},${f.box.y} ${f.box.width}x${f.box.height}`);
      expect(where).toHaveLength(3);
      const centres = faces.map((f) => (f.box.x + f.box.width / 2) / width).sort((a, b) => a - b);
      centres.forEach((c, i) => expect(Math.abs(c - CENTRES[i]!), where.join('; ')).toBeLessThan(0.05));
    },
    120_000,
  );

  it('searches a 1 MP portrait with one detector run', async () => {
    const picture = join(dir, 'portrait-1mp.jpg');
    await sharp(fixture('portrait-hopper.jpg')).resize(925, 1084).jpeg({ quality: 90 }).toFile(picture);
    expect(await detectorRuns(picture)).toMatchObject({ runs: 1, faces: 1 });
  }, 120_000);

  it.each([
    ['portrait-hopper.jpg', 273],
    ['portrait-hopper.jpg', 2048],
    ['grace-hopper.jpg', 128],
  ])(
    'searches %s at %i px wide with one detector run',
    async (file, width) => {
      const picture = await resized(
        file.startsWith('grace') ? MODERATION_FIXTURES + file : fixture(file),
        width,
      );
      expect(await detectorRuns(picture.path)).toMatchObject({ runs: 1, faces: 1 });
    },
    120_000,
  );

  it('still tiles a group picture of 1100 px (more than one detector run)', async () => {
    const picture = await resized(fixture('group-three.jpg'), 1100);
    const { runs, faces } = await detectorRuns(picture.path);
    expect(faces).toBe(3);
    expect(runs).toBeGreaterThan(1);
  }, 120_000);

  it('spends no landmark run on tiles when only boxes are wanted (detection): same faces, one run less', async () => {
    // The 1 MP group: the whole picture shows two faces, a tile the third; a swap needs its landmarks
    // (a second run of that tile), detection alone does not.
    const picture = join(dir, 'group-1mp.jpg');
    await sharp(fixture('group-three.jpg')).resize(1540, 652).jpeg({ quality: 90 }).toFile(picture);
    const forSwap = await detectorRuns(picture);
    const forDetect = await detectorRuns(picture, { landmarks: false });
    expect(forSwap).toMatchObject({ runs: 5, faces: 3 });
    expect(forDetect).toMatchObject({ runs: 4, faces: 3 });
    forDetect.centres.forEach((c, i) => expect(Math.abs(c - forSwap.centres[i]!)).toBeLessThan(0.01));
  }, 120_000);

  it.each(NO_FACE_PHOTOS.map((path) => [path.split('/').at(-1)!, path]))(
    'finds no face in %s enlarged to 960, 1100, 1200 and 1600 px wide',
    async (_name, path) => {
      const found: string[] = [];
      for (const width of [960, 1100, 1200, 1600]) {
        const picture = await resized(path, width);
        for (const f of await detectFaces(picture.path)) {
          found.push(`${width}x${picture.height}: ${f.box.x},${f.box.y} ${f.box.width}x${f.box.height}`);
        }
      }
      expect(found).toEqual([]);
    },
    300_000,
  );
});
