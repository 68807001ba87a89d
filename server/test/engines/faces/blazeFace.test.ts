/**
 * The box detector (boxDetector.ts: BlazeFace converted to ONNX, run on onnxruntime) must answer what
 * Human's own detector answers with the mesh off, which is what findFaces used for tiles and closer looks
 * before: the same faces, boxes within a pixel or two, the same rounded scores. Checked on the pictures and
 * tiles the searches really see: every face fixture and ordinary photo, whole and cut into findFaces's
 * tiles, including pictures with no face (where any box is a false one and must match too).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Human, Tensor3D } from '@vladmandic/human';
import {
  blazeFace,
  nonMaxSuppression,
  WITH_LANDMARKS,
  type BlazeFace,
} from '../../../src/engines/faces/blazeFace.js';
import { downscale } from '../../../src/engines/faces/downscale.js';
import { DETECT_MAX_SIDE } from '../../../src/engines/faces/findFaces.js';
import { human } from '../../../src/engines/faces/human.js';
import { readRgb } from '../../../src/engines/faces/readRgb.js';
import { tilesFor } from '../../../src/engines/faces/tiles.js';
import { fixture, MODERATION_FIXTURES, NO_FACE_PHOTOS } from './fixtures.js';

let h: Human;
let detector: BlazeFace;

beforeAll(async () => {
  [h, detector] = await Promise.all([human(), blazeFace()]);
}, 120_000);

/** Human's box-only run (mesh and rotation off, as findFaces made it), in the box detector's terms. */
async function humanBoxes(input: Tensor3D) {
  const result = await h.detect(input, {
    face: { mesh: { enabled: false }, detector: { rotation: false } },
  } as Parameters<Human['detect']>[1]);
  return result.face.map((f) => ({ box: f.box, boxScore: f.boxScore }));
}

const PICTURES = [
  fixture('group-three.jpg'),
  fixture('portrait-hopper.jpg'),
  fixture('portrait-astronaut.jpg'),
  fixture('portrait-cameraman.jpg'),
  MODERATION_FIXTURES + 'group-composite.jpg',
  ...NO_FACE_PHOTOS,
];

describe('BlazeFace on onnxruntime answers what Human answers', () => {
  it.each(PICTURES.map((path) => [path.split('/').pop()!, path]))(
    '%s: the whole picture and each of its tiles',
    async (_name, path) => {
      const image = await readRgb(path);
      const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / DETECT_MAX_SIDE));
      const small = downscale(image, factor);
      const picture = h.tf.tensor3d(small.data, [small.height, small.width, 3], 'int32');
      try {
        const areas = [
          { x: 0, y: 0, width: small.width, height: small.height },
          ...tilesFor(small.width, small.height),
        ];
        let compared = 0;
        for (const area of areas) {
          const part = h.tf.slice(picture, [area.y, area.x, 0], [area.height, area.width, 3]) as Tensor3D;
          try {
            const [expected, actual] = [await humanBoxes(part), await detector.boxes(part)];
            expect(actual.length, `faces in ${JSON.stringify(area)}`).toBe(expected.length);
            actual.forEach((face, i) => {
              const want = expected[i]!;
              expect(Math.abs(face.boxScore - want.boxScore)).toBeLessThanOrEqual(0.01);
              face.box.forEach((v, k) => expect(Math.abs(v - want.box[k]!)).toBeLessThanOrEqual(2));
            });
            compared += expected.length;
          } finally {
            h.tf.dispose(part);
          }
        }
        // Pictures with people must have been compared on real faces, not only on empty answers.
        if (!NO_FACE_PHOTOS.includes(path)) expect(compared).toBeGreaterThan(0);
      } finally {
        h.tf.dispose(picture);
      }
    },
    60_000,
  );
});

describe('detectWithLandmarks answers what Human answers with FaceMesh', () => {
  it.each(PICTURES.map((path) => [path.split('/').pop()!, path]))(
    '%s',
    async (_name, path) => {
      const image = downscale(await readRgb(path), 1);
      const picture = h.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32') as Tensor3D;
      try {
        const expected = (await h.detect(picture, WITH_LANDMARKS)).face;
        const actual = await detector.detectWithLandmarks(picture);
        expect(actual.length).toBe(expected.length);
        actual.forEach((face, i) => {
          const want = expected[i]!;
          expect(Math.abs(face.faceScore - want.faceScore)).toBeLessThanOrEqual(0.01);
          expect(Math.abs(face.boxScore - want.boxScore)).toBeLessThanOrEqual(0.01);
          face.box.forEach((v, k) => expect(Math.abs(v - want.box[k]!)).toBeLessThanOrEqual(2));
          expect(face.mesh.length).toBe(want.mesh.length);
          let worst = 0;
          face.mesh.forEach((p, k) => {
            worst = Math.max(worst, Math.abs(p[0] - want.mesh[k]![0]), Math.abs(p[1] - want.mesh[k]![1]));
          });
          expect(worst).toBeLessThanOrEqual(2);
        });
        if (!NO_FACE_PHOTOS.includes(path)) expect(actual.some((f) => f.mesh.length === 468)).toBe(true);
        // Human's model is itself again: no execute() of this detection's left on it.
        expect(Object.hasOwn(h.models.models.blazeface!, 'execute')).toBe(false);
      } finally {
        h.tf.dispose(picture);
      }
    },
    60_000,
  );

  it('really answers BlazeFace from onnxruntime: tfjs never runs it', async () => {
    const model = h.models.models.blazeface!;
    const image = await readRgb(fixture('portrait-hopper.jpg'));
    const picture = h.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32') as Tensor3D;
    // GraphModel's own execute(), counting the calls made on BlazeFace (FaceMesh shares the prototype).
    const prototype = Object.getPrototypeOf(model) as { execute: (...args: unknown[]) => unknown };
    const execute = prototype.execute;
    let tfjsCalls = 0;
    prototype.execute = function (this: unknown, ...args: unknown[]) {
      if (this === model) tfjsCalls++;
      return execute.apply(this, args);
    };
    try {
      const faces = await detector.detectWithLandmarks(picture);
      expect(faces).toHaveLength(1);
      expect(faces[0]!.mesh).toHaveLength(468);
      expect(tfjsCalls).toBe(0);
      // The counter itself works: Human on its own does call it.
      await h.detect(picture, WITH_LANDMARKS);
      expect(tfjsCalls).toBe(1);
    } finally {
      prototype.execute = execute;
      h.tf.dispose(picture);
    }
  });
});

describe('an empty picture', () => {
  it('has no faces, in either kind of run', async () => {
    const empty = h.tf.tensor3d([], [0, 5, 3], 'int32') as Tensor3D;
    try {
      expect(await detector.boxes(empty)).toEqual([]);
      expect(await detector.detectWithLandmarks(empty)).toEqual([]);
    } finally {
      h.tf.dispose(empty);
    }
  });
});

describe('nonMaxSuppression', () => {
  // Boxes as [x1, y1, x2, y2]: two overlapping ones (IoU 0.68), one apart, one under the score bar.
  const boxes = Float32Array.from([0, 0, 10, 10, 1, 1, 11, 11, 50, 50, 60, 60, 100, 100, 110, 110]);
  const scores = Float32Array.from([0.8, 0.9, 0.5, 0.1]);

  it('keeps the best of overlapping boxes, by falling score, above the least score', () => {
    expect(nonMaxSuppression(boxes, scores, 10, 0.1, 0.15)).toEqual([1, 2]);
  });

  it('keeps overlapping boxes whose IoU is under the threshold', () => {
    expect(nonMaxSuppression(boxes, scores, 10, 0.7, 0.15)).toEqual([1, 0, 2]);
  });

  it('stops at the most boxes asked for', () => {
    expect(nonMaxSuppression(boxes, scores, 1, 0.7, 0.15)).toEqual([1]);
  });
});
