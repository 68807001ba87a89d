/** The faces engines (spec 4.4 detect, 4.5 swap) and their warm-up for /readyz. */
import { findFaces } from './faceDetector.js';

export { detectFaces } from './detectFaces.js';
export { faceSwapEngine } from './swapFace.js';

let warming: Promise<void> | undefined;

/**
 * Loads the detector's models once per process and runs one detection, tiles included, so both detectors
 * (Human's WASM kernels, the box detector's onnxruntime session) have run before the first request.
 * Idempotent: every caller gets the same promise.
 */
export function warmUpFaces(): Promise<void> {
  warming ??= findFaces(
    { data: new Uint8Array(128 * 128 * 3).fill(128), width: 128, height: 128 },
    { tiles: 'always' },
  ).then(
    () => undefined,
    (error: unknown) => {
      warming = undefined;
      throw error;
    },
  );
  return warming;
}
