/**
 * The nsfw classifier's worker thread: loads the model once (nsfwModel.ts) and classifies the rasters
 * the main thread sends it. Inference on the wasm backend is synchronous and takes about 30 ms per
 * image; in this thread it no longer blocks the server's event loop, so HTTP, database and decoding
 * work for other requests goes on on the other core meanwhile.
 *
 * Micro-batching: requests that arrive while the model is busy wait in `pending`; when it is free, up to
 * MAX_BATCH of them run as one batch (about 10% less time per image than one by one). A cancelled
 * request (its caller aborted) is dropped before it runs.
 *
 * The messages are workerThread.ts's protocol; the model name comes in workerData.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerReplyMessage, WorkerRequestMessage } from '../workerThread.js';
import { loadNsfwModel, type NsfwModel, type NsfwModelName } from './nsfwModel.js';
import type { NsfwClassProbabilities } from './nsfwScore.js';

/** What the worker says about itself once loaded. */
export interface NsfwWorkerInfo {
  inputSize: number;
  runtime: NsfwModel['runtime'];
}
/** One request: a square RGB raster of inputSize x inputSize. */
export interface NsfwWorkerPayload {
  rgb: Uint8Array;
}

/** Most images classified in one batch (memory: 8 x 224 x 224 x 3 floats = 4.8 MB of input). */
const MAX_BATCH = 8;

const port = parentPort!;
const send = (reply: WorkerReplyMessage<NsfwWorkerInfo, NsfwClassProbabilities>) => port.postMessage(reply);
const pending: Array<{ id: number; rgb: Uint8Array }> = [];
let draining = false;

async function drain(model: NsfwModel) {
  draining = true;
  try {
    while (pending.length > 0) {
      const batch = pending.splice(0, MAX_BATCH);
      try {
        const results = await model.predictBatch(batch.map((job) => job.rgb));
        batch.forEach((job, i) => send({ type: 'result', id: job.id, value: results[i]! }));
      } catch (error) {
        for (const job of batch) send({ type: 'failed', id: job.id, message: (error as Error).message });
      }
      // Let messages that arrived during the batch (new requests, cancellations) in before the next.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    draining = false;
  }
}

try {
  const model = await loadNsfwModel((workerData as { modelName: NsfwModelName }).modelName);
  // One full batch before saying ready: the wasm heap grows to a batch's activations here, not in
  // the first burst of requests (which took about a second longer than the next ones without it).
  const blank = new Uint8Array(model.inputSize * model.inputSize * 3);
  await model.predictBatch(Array.from({ length: MAX_BATCH }, () => blank));
  port.on('message', (message: WorkerRequestMessage<NsfwWorkerPayload>) => {
    if (message.type === 'cancel') {
      const at = pending.findIndex((job) => job.id === message.id);
      if (at >= 0) pending.splice(at, 1);
      return;
    }
    pending.push({ id: message.id, rgb: message.payload.rgb });
    if (!draining) void drain(model);
  });
  send({ type: 'ready', info: { inputSize: model.inputSize, runtime: model.runtime } });
} catch (error) {
  send({ type: 'load-failed', message: (error as Error).message });
}
