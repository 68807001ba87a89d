/**
 * The face detector as the engines call it: findFaces.ts running in ONE worker thread per process
 * (faceWorker.ts), started on first use and shared by every caller; the models are loaded once, in
 * that thread. Decoding, cropping, warping and encoding stay on the main thread; only the packed RGB
 * picture goes to the worker and only the boxes and landmarks come back.
 */
import { startWorkerClient, type WorkerClient } from '../workerThread.js';
import type { FaceGeometry } from './faceGeometry.js';
import type { FaceWorkerPayload } from './faceWorker.js';
import type { FindFacesOptions } from './findFaces.js';
import type { RgbImage } from './rgbImage.js';

type FaceWorker = WorkerClient<Record<string, never>, FaceWorkerPayload, FaceGeometry[]>;

let worker: Promise<FaceWorker> | undefined;

function faceWorker(): Promise<FaceWorker> {
  if (!worker) {
    const starting = startWorkerClient<Record<string, never>, FaceWorkerPayload, FaceGeometry[]>(
      import.meta.url,
      'faceWorker',
      {},
    );
    worker = starting;
    starting.then(
      (client) =>
        client.onGone(() => {
          if (worker === starting) worker = undefined;
        }),
      () => {
        if (worker === starting) worker = undefined;
      },
    );
  }
  return worker;
}

/** Every face in the picture, largest first (see findFaces.ts), found in the detector's worker. */
export async function findFaces(
  image: RgbImage,
  options: FindFacesOptions = {},
  signal?: AbortSignal,
): Promise<FaceGeometry[]> {
  // A copy of its own, taken now (the caller may reuse its buffer as soon as this returns a promise), so
  // the pixels can move to the worker without being copied again.
  const data = image.data.slice();
  const client = await faceWorker();
  return client.request({ data, width: image.width, height: image.height, options }, [data.buffer], signal);
}

/** Stops the detector's worker (tests, shutdown); the next findFaces starts a new one. */
export async function closeFaceDetector(): Promise<void> {
  const current = worker;
  worker = undefined;
  await (await current?.catch(() => undefined))?.close();
}
