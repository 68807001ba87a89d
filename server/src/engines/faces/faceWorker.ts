/**
 * The face detector's worker thread: loads the models once (human.ts, blazeFace.ts) and runs findFaces.ts on the
 * pictures the main thread sends it, one at a time (findFaces queues them). A detection is 50-300 ms of
 * synchronous WebAssembly and onnxruntime work; here it no longer blocks the server's event loop, which a video face
 * swap (one detection per frame) did for seconds at a time in a process that also serves the API.
 *
 * The messages are workerThread.ts's protocol. A cancelled request still runs (a detection cannot be
 * interrupted) but its answer is not sent.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerReplyMessage, WorkerRequestMessage } from '../workerThread.js';
import type { FaceGeometry } from './faceGeometry.js';
import { findFaces, type FindFacesOptions } from './findFaces.js';
import { blazeFace } from './blazeFace.js';

/** One request: a packed RGB picture and the search options. */
export interface FaceWorkerPayload {
  data: Uint8Array;
  width: number;
  height: number;
  options: FindFacesOptions;
}

const port = parentPort!;
const send = (
  reply: WorkerReplyMessage<Record<string, never>, FaceGeometry[]>,
  transfer: ArrayBuffer[] = [],
) => port.postMessage(reply, transfer);
const cancelled = new Set<number>();

try {
  // Human's models, and BlazeFace converted for onnxruntime (blazeFace.ts), both loaded before "ready".
  await blazeFace();
  port.on('message', (message: WorkerRequestMessage<FaceWorkerPayload>) => {
    if (message.type === 'cancel') {
      cancelled.add(message.id);
      return;
    }
    const { id, payload } = message;
    findFaces({ data: payload.data, width: payload.width, height: payload.height }, payload.options).then(
      (faces) => {
        if (cancelled.delete(id)) return;
        send({ type: 'result', id, value: faces }, [
          ...new Set(faces.map((f) => f.mesh.buffer as ArrayBuffer)),
        ]);
      },
      (error: unknown) => {
        if (cancelled.delete(id)) return;
        send({ type: 'failed', id, message: (error as Error).message });
      },
    );
  });
  send({ type: 'ready', info: {} });
} catch (error) {
  send({ type: 'load-failed', message: (error as Error).message });
}
