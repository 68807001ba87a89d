/**
 * How many times the face detector runs while `fn` works: findFaces on this thread runs it once for the
 * whole picture (with landmarks), once per tile and once per closer look (box-only), and once more per tile
 * that shows a new face when a swap wants its landmarks (engines/faces/findFaces.ts, blazeFace.ts).
 * Detector runs are what a detection costs and, unlike times, are the same on every run, so the tile tests
 * and the faces benchmark count them; `boxOnly` says how many of them were box-only runs. Counts every
 * call on this thread's detectors meanwhile: run nothing else at once.
 */
import { blazeFace } from '../engines/faces/blazeFace.js';

export async function countDetectorRuns<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; runs: number; boxOnly: number }> {
  const detector = await blazeFace();
  const landmarksOnce = detector.detectWithLandmarks.bind(detector);
  const boxesOnce = detector.boxes.bind(detector);
  let withLandmarks = 0;
  let boxOnly = 0;
  detector.detectWithLandmarks = (...args: Parameters<typeof detector.detectWithLandmarks>) => {
    withLandmarks++;
    return landmarksOnce(...args);
  };
  detector.boxes = (...args: Parameters<typeof detector.boxes>) => {
    boxOnly++;
    return boxesOnce(...args);
  };
  try {
    const result = await fn();
    return { result, runs: withLandmarks + boxOnly, boxOnly };
  } finally {
    delete (detector as Partial<typeof detector>).detectWithLandmarks;
    delete (detector as Partial<typeof detector>).boxes;
  }
}
