import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, warmUpFaces } from '../../../src/engines/faces/index.js';
import { EngineError } from '../../../src/engines/types.js';
import { fixture } from './fixtures.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faces-detect-'));
  await warmUpFaces();
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('detectFaces on real photos', () => {
  it('finds the one face of a single portrait and crops it with a margin', async () => {
    const faces = await detectFaces(fixture('portrait-astronaut.jpg'));
    expect(faces).toHaveLength(1);
    const [face] = faces;
    expect(face!.score).toBeGreaterThan(0.5);
    // Eileen Collins' face sits in the upper middle of the 512x512 photo.
    expect(face!.box.x).toBeGreaterThan(100);
    expect(face!.box.x + face!.box.width).toBeLessThan(360);
    expect(face!.box.y + face!.box.height).toBeLessThan(260);
    const crop = await sharp(face!.crop).metadata();
    expect(crop.format).toBe('png');
    // The margin makes the crop larger than the box on every side that has room.
    expect(crop.width).toBeGreaterThan(face!.box.width * 1.5);
    expect(crop.height).toBeGreaterThan(face!.box.height * 1.5);
    expect(crop.width).toBeLessThanOrEqual(512);
    expect(crop.height).toBeLessThanOrEqual(512);
  });

  it('finds the face of a second portrait, and the crop is itself detectable (usable as a swap source)', async () => {
    const faces = await detectFaces(fixture('portrait-hopper.jpg'));
    expect(faces).toHaveLength(1);
    const cropPath = join(dir, 'hopper-crop.png');
    await writeFile(cropPath, faces[0]!.crop);
    const again = await detectFaces(cropPath);
    expect(again).toHaveLength(1);
  });

  it('finds all three faces of the group photo, largest first', async () => {
    const faces = await detectFaces(fixture('group-three.jpg'));
    expect(faces).toHaveLength(3);
    const areas = faces.map((f) => f.box.width * f.box.height);
    expect(areas[0]).toBeGreaterThanOrEqual(areas[1]!);
    expect(areas[1]).toBeGreaterThanOrEqual(areas[2]!);
    // Left to right the photo shows the astronaut (x 10-310), Grace Hopper (x 320-610, the largest face)
    // and the cameraman (x 620-888, the smallest).
    const centre = (f: (typeof faces)[number]) => f.box.x + f.box.width / 2;
    expect(centre(faces[0]!)).toBeGreaterThan(320);
    expect(centre(faces[0]!)).toBeLessThan(610);
    expect(centre(faces[1]!)).toBeLessThan(310);
    expect(centre(faces[2]!)).toBeGreaterThan(620);
    for (const face of faces) {
      const crop = await sharp(face.crop).metadata();
      expect(crop.width).toBeGreaterThan(face.box.width);
      expect(crop.height).toBeGreaterThan(face.box.height);
    }
    // Crops follow the boxes: the largest face gives the largest crop.
    const cropSizes = await Promise.all(faces.map(async (f) => (await sharp(f.crop).metadata()).width));
    expect(cropSizes[0]).toBeGreaterThan(cropSizes[2]!);
  });

  it('finds the face of a person partly hidden behind a camera', async () => {
    const faces = await detectFaces(fixture('portrait-cameraman.jpg'));
    expect(faces).toHaveLength(1);
    // The cameraman's head is left of the camera, in the upper half of the 512x512 photo.
    expect(faces[0]!.box.x).toBeGreaterThan(120);
    expect(faces[0]!.box.x + faces[0]!.box.width).toBeLessThan(330);
    expect(faces[0]!.box.y + faces[0]!.box.height).toBeLessThan(280);
  });

  it('answers [] for photos without a person (coffee cup, cat, rocket launch)', async () => {
    expect(await detectFaces(fixture('no-face-coffee.jpg'))).toEqual([]);
    expect(await detectFaces(fixture('no-face-cat.jpg'))).toEqual([]);
    expect(await detectFaces(fixture('no-face-rocket.jpg'))).toEqual([]);
  });

  it.each([
    [1, 1],
    [2, 2000],
    [2000, 3],
    [64, 64],
  ])('answers [] for a plain %ix%i picture, however thin (shrinking can leave no pixels)', async (w, h) => {
    const path = join(dir, `plain-${w}x${h}.png`);
    await sharp({ create: { width: w, height: h, channels: 3, background: '#88aa77' } })
      .png()
      .toFile(path);
    expect(await detectFaces(path)).toEqual([]);
  });

  it('rejects a file that is not an image with an EngineError', async () => {
    const path = join(dir, 'not-an-image.png');
    await writeFile(path, 'hello, I am text');
    await expect(detectFaces(path)).rejects.toBeInstanceOf(EngineError);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(detectFaces(fixture('portrait-astronaut.jpg'), controller.signal)).rejects.toThrow();
  });
});
