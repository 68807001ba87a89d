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
import { decodeToSquareRgb } from './decodeImage.js';
import { DEFAULT_NSFW_MODEL, NSFW_MODEL_NAMES, type NsfwModelName, type NsfwRuntime } from './nsfwModel.js';
import type { NsfwClassProbabilities } from './nsfwScore.js';
import { startWorkerClient } from '../workerThread.js';
import type { NsfwWorkerInfo, NsfwWorkerPayload } from './nsfwWorker.js';

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
  /** Class probabilities for one image (any size; decoded and resized here, then `onDecoded` is called). */
  classify(image: Buffer, signal?: AbortSignal, onDecoded?: () => void): Promise<NsfwClassProbabilities>;
  /** Class probabilities for an already decoded square RGB raster of inputSize x inputSize. */
  classifyRgb(rgb: Uint8Array, signal?: AbortSignal): Promise<NsfwClassProbabilities>;
  /** Stops the worker; calls after this reject, and the next nsfwImageClassifier() starts a new one. */
  close(): Promise<void>;
}

const loaded = new Map<NsfwModelName, Promise<NsfwImageClassifier>>();

async function load(modelName: NsfwModelName): Promise<NsfwImageClassifier> {
  const worker = await startWorkerClient<NsfwWorkerInfo, NsfwWorkerPayload, NsfwClassProbabilities>(
    import.meta.url,
    'nsfwWorker',
    { modelName },
  );
  worker.onGone(() => loaded.delete(modelName));
  const size = worker.info.inputSize;
  const classifyRgb = async (rgb: Uint8Array, signal?: AbortSignal) => {
    if (rgb.length !== size * size * 3) throw new RangeError(`expected a ${size}x${size} RGB raster`);
    // A copy of its own, so the buffer can move to the worker without being copied again.
    const own = rgb.slice();
    return worker.request({ rgb: own }, [own.buffer], signal);
  };
  return {
    modelName,
    inputSize: size,
    runtime: worker.info.runtime,
    classifyRgb,
    async classify(image, signal, onDecoded) {
      const { data } = await decodeToSquareRgb(image, size);
      // The raster goes to the worker first; whatever onDecoded starts runs while it is classified.
      const probabilities = classifyRgb(data, signal);
      onDecoded?.();
      return probabilities;
    },
    close: () => worker.close(),
  };
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
