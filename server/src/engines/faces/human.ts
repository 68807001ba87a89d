/**
 * The face detector: @vladmandic/human 3.3 (BlazeFace detector + MediaPipe FaceMesh, 468 landmarks) on
 * TensorFlow.js's WASM backend, with the models that ship inside the package (models/ folder) loaded
 * from a file:// base path. Loaded once per process; `human()` returns the same warm instance.
 *
 * The package's export map spells its subpaths without "./", so Node refuses
 * `@vladmandic/human/dist/human.node-wasm.js`; the bundle is required by absolute path instead.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Human } from '@vladmandic/human';
import { tfReady } from '../moderation/tfBackend.js';
import { installFileFetchShim } from './fileFetchShim.js';

const require = createRequire(import.meta.url);

/** Most faces found in one image or frame. */
export const MAX_FACES = 32;
/**
 * BlazeFace's settings, shared with boxDetector.ts (which runs the same network on onnxruntime):
 * least box confidence, the overlap above which non-maximum suppression drops a box, and how much a
 * detector box is enlarged to frame the whole face.
 */
export const DETECTOR_MIN_CONFIDENCE = 0.15;
export const DETECTOR_IOU = 0.1;
export const DETECTOR_BOX_SCALE = 1.4;

function humanConfig(modelBasePath: string, wasmPath: string): Partial<Config> {
  return {
    backend: 'wasm',
    modelBasePath,
    wasmPath,
    debug: false,
    async: true,
    warmup: 'none',
    // Every call is an independent picture: no caching of boxes between calls.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        enabled: true,
        rotation: true,
        maxDetected: MAX_FACES,
        // Low on purpose: human applies it to the landmarks' confidence too, which is low for a face that is
        // partly hidden (a hand, a camera). Detector boxes are filtered by findFaces.ts instead.
        minConfidence: DETECTOR_MIN_CONFIDENCE,
        iouThreshold: DETECTOR_IOU,
        scale: DETECTOR_BOX_SCALE,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      attention: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  } as Partial<Config>;
}

let loading: Promise<Human> | undefined;

async function load(): Promise<Human> {
  // Human shares the process's tfjs engine and wasm backend with the moderation models. Initialise it
  // through the one shared tfReady() first: if Human's load() called tf.setBackend('wasm') while another
  // initialisation was pending, tfjs would supersede that one and its caller would get `false`.
  // Afterwards Human's own setBackend('wasm') only selects the ready backend.
  await tfReady();
  installFileFetchShim();
  const distDir = dirname(require.resolve('@vladmandic/human'));
  const modelsDir = join(distDir, '..', 'models');
  // tfjs-backend-wasm's main file sits in its dist/, next to the .wasm binaries.
  const wasmDist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const { Human: HumanClass } = require(join(distDir, 'human.node-wasm.js')) as {
    Human: new (config: Partial<Config>) => Human;
  };
  const instance = new HumanClass(
    humanConfig(pathToFileURL(modelsDir).href + '/', pathToFileURL(wasmDist).href + '/'),
  );
  await instance.load();
  await instance.tf.ready();
  if (instance.tf.getBackend() !== 'wasm') {
    throw new Error(`face detector backend is ${instance.tf.getBackend()}, expected wasm`);
  }
  return instance;
}

/** The process's one warm detector (loads the models on first call). */
export function human(): Promise<Human> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
