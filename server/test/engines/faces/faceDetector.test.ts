/**
 * faceDetector.ts: face detection runs in a worker thread (faceWorker.ts). The main event loop keeps
 * turning while it detects, its answers equal the detector's run in this thread, and a closed
 * detector is replaced by a new worker on the next call.
 */
import { describe, expect, it } from 'vitest';
import { closeFaceDetector, findFaces } from '../../../src/engines/faces/faceDetector.js';
import { findFaces as findFacesHere } from '../../../src/engines/faces/findFaces.js';
import { readRgb } from '../../../src/engines/faces/readRgb.js';
import { eventLoopTurnsDuring } from '../eventLoopTurns.js';
import { fixture } from './fixtures.js';

describe('face detector worker', () => {
  it('finds the same faces as the detector run on this thread', async () => {
    const image = await readRgb(fixture('group-three.jpg'));
    const [inWorker, here] = await Promise.all([findFaces(image), findFacesHere(image)]);
    expect(inWorker).toHaveLength(3);
    expect(inWorker.map((f) => f.box)).toEqual(here.map((f) => f.box));
    expect(Array.from(inWorker[0]!.mesh)).toEqual(Array.from(here[0]!.mesh));
  }, 120_000);

  it('keeps the main event loop turning while it detects', async () => {
    const image = await readRgb(fixture('group-three.jpg'));
    await findFaces(image);
    const { turns } = await eventLoopTurnsDuring(() =>
      Promise.all([findFaces(image), findFaces(image), findFaces(image)]),
    );
    // Three group detections are about a second of wasm work; on this thread the loop would turn a
    // handful of times, in the worker it turns freely.
    expect(turns).toBeGreaterThan(50);
  }, 120_000);

  it('starts a new worker after closeFaceDetector()', async () => {
    const image = await readRgb(fixture('portrait-astronaut.jpg'));
    const before = await findFaces(image);
    await closeFaceDetector();
    const after = await findFaces(image);
    expect(after.map((f) => f.box)).toEqual(before.map((f) => f.box));
  }, 120_000);
});
