/**
 * How many times the face detector runs while `fn` works: findFaces on this thread calls it once for the
 * whole picture, once per tile and once per closer look (engines/faces/findFaces.ts). Detector runs are
 * what a detection costs and, unlike times, are the same on every run, so the tile tests and the faces
 * benchmark count them. Counts every call on this thread's detector meanwhile: run nothing else at once.
 */
import { human } from '../engines/faces/human.js';

export async function countDetectorRuns<T>(fn: () => Promise<T>): Promise<{ result: T; runs: number }> {
  const h = await human();
  const detectOnce = h.detect.bind(h);
  let runs = 0;
  h.detect = (...args: Parameters<typeof h.detect>) => {
    runs++;
    return detectOnce(...args);
  };
  try {
    return { result: await fn(), runs };
  } finally {
    h.detect = detectOnce;
  }
}
