/**
 * The nsfw image classifier as the server calls it: nsfwjs (nsfwModel.ts) running in ONE worker thread
 * per process and model (nsfwWorker.ts), loaded once and shared by every caller; requests queue there
 * and are micro-batched. Pictures are decoded here, on the main thread's libuv pool (sharp), and only
 * the 224 px raster crosses to the worker.
 *
 * Why a worker: a wasm inference is about 30 ms of synchronous work. On the main thread, 20 concurrent
 * image calls kept the event loop blocked for their whole burst, so every other request (status polls,
 * downloads, database replies) waited behind them; in the worker the two cores are both used.
 *
 * Model: MEDIAGEN_NSFW_MODEL (MobileNetV2, MobileNetV2Mid or InceptionV3); the default was chosen by
 * measurement, see docs/moderation.md ("Choosing the image model").
 */
import { Worker } from 'node:worker_threads';
import { decodeToSquareRgb } from './decodeImage.js';
import { DEFAULT_NSFW_MODEL, NSFW_MODEL_NAMES, type NsfwModelName, type NsfwRuntime } from './nsfwModel.js';
import type { NsfwClassProbabilities } from './nsfwScore.js';
import type { WorkerReply, WorkerRequest } from './nsfwWorker.js';

export { DEFAULT_NSFW_MODEL, NSFW_MODEL_NAMES, type NsfwModelName } from './nsfwModel.js';

export function configuredNsfwModel(env: NodeJS.ProcessEnv = process.env): NsfwModelName {
  const name = env.MEDIAGEN_NSFW_MODEL?.trim();
  if (!name) return DEFAULT_NSFW_MODEL;
  if (!(NSFW_MODEL_NAMES as readonly string[]).includes(name)) {
    throw new Error(`MEDIAGEN_NSFW_MODEL must be one of ${NSFW_MODEL_NAMES.join(', ')}; got "${name}"`);
  }
  return name as NsfwModelName;
}

export interface NsfwImageClassifier {
  readonly modelName: NsfwModelName;
  readonly inputSize: number;
  /** 'folded' (BatchNorm folded, checked against the stock model at load) or 'stock'. */
  readonly runtime: NsfwRuntime;
  /** Class probabilities for one image (any size; decoded and resized here). */
  classify(image: Buffer, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
  /** Class probabilities for an already decoded square RGB raster of inputSize x inputSize. */
  classifyRgb(rgb: Uint8Array, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
  /** Stops the worker; calls after this reject, and the next nsfwImageClassifier() starts a new one. */
  close(): Promise<void>;
}

const loaded = new Map<NsfwModelName, Promise<NsfwImageClassifier>>();

/**
 * Starts the worker. From compiled JavaScript (server/dist) it is nsfwWorker.js beside this file; from
 * TypeScript sources (tests, benchmarks under tsx or vitest) the worker first registers tsx's loader so
 * it can import nsfwWorker.ts.
 */
function startWorker(modelName: NsfwModelName): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './nsfwWorker.ts' : './nsfwWorker.js', import.meta.url);
  const options = { workerData: { modelName }, name: `nsfw-${modelName}` };
  if (!fromSource) return new Worker(entry, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function load(modelName: NsfwModelName): Promise<NsfwImageClassifier> {
  const worker = startWorker(modelName);
  const waiting = new Map<
    number,
    { resolve: (p: NsfwClassProbabilities) => void; reject: (e: unknown) => void }
  >();
  let nextId = 1;
  let broken: Error | undefined;

  // The worker keeps the process alive only while a request waits for it.
  worker.unref();
  const settle = (id: number) => {
    const entry = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
    return entry;
  };
  const failAll = (error: Error) => {
    broken = error;
    loaded.delete(modelName);
    for (const id of [...waiting.keys()]) settle(id)?.reject(error);
  };

  return new Promise<NsfwImageClassifier>((resolveLoad, rejectLoad) => {
    worker.on('error', (error) => {
      failAll(new Error(`nsfw classifier worker failed: ${error.message}`));
      rejectLoad(error);
    });
    worker.on('exit', (code) => {
      failAll(new Error(`nsfw classifier worker exited (code ${code})`));
      rejectLoad(new Error(`nsfw classifier worker exited before loading (code ${code})`));
    });
    worker.on('message', (reply: WorkerReply) => {
      switch (reply.type) {
        case 'result':
          settle(reply.id)?.resolve(reply.probabilities as NsfwClassProbabilities);
          return;
        case 'failed':
          settle(reply.id)?.reject(new Error(reply.message));
          return;
        case 'load-failed':
          rejectLoad(new Error(reply.message));
          void worker.terminate();
          return;
        case 'ready': {
          const size = reply.inputSize;
          const classifyRgb = (rgb: Uint8Array, signal?: AbortSignal) =>
            new Promise<NsfwClassProbabilities>((resolve, reject) => {
              if (broken) throw broken;
              if (rgb.length !== size * size * 3)
                throw new RangeError(`expected a ${size}x${size} RGB raster`);
              signal?.throwIfAborted();
              const id = nextId++;
              waiting.set(id, { resolve, reject });
              worker.ref();
              // A copy of its own, so the buffer can move to the worker without copying again.
              const own = rgb.slice();
              worker.postMessage({ type: 'classify', id, rgb: own } satisfies WorkerRequest, [own.buffer]);
              signal?.addEventListener(
                'abort',
                () => {
                  if (!waiting.has(id)) return;
                  worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest);
                  settle(id)?.reject(signal.reason);
                },
                { once: true },
              );
            });
          resolveLoad({
            modelName,
            inputSize: size,
            runtime: reply.runtime,
            classifyRgb,
            async classify(image, signal) {
              const { data } = await decodeToSquareRgb(image, size);
              return classifyRgb(data, signal);
            },
            async close() {
              loaded.delete(modelName);
              await worker.terminate();
            },
          });
          return;
        }
      }
    });
  });
}

/** The process-wide classifier for `modelName` (default: the configured one); loads on first use. */
export function nsfwImageClassifier(
  modelName: NsfwModelName = configuredNsfwModel(),
): Promise<NsfwImageClassifier> {
  let promise = loaded.get(modelName);
  if (!promise) {
    promise = load(modelName);
    loaded.set(modelName, promise);
    promise.catch(() => loaded.delete(modelName));
  }
  return promise;
}
