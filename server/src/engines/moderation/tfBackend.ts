/**
 * The TensorFlow.js backend for the image models: @tensorflow/tfjs-backend-wasm, set up once per
 * thread (the nsfw classifier's worker thread has its own, see nsfwImage.ts). The .wasm binaries are read from the package's own dist/ folder on disk (setWasmPaths with
 * a filesystem directory), so nothing is fetched from the network. tfjs-node cannot be installed offline
 * and the plain JS cpu backend is about 20x slower, hence wasm.
 *
 * Within a thread every tfjs user shares ONE engine and wasm backend (the face detector,
 * @vladmandic/human in faces/human.ts, requires the same @tensorflow/tfjs-core and tfjs-backend-wasm),
 * so this is the one place that initialises the backend and every tfjs user awaits tfReady() before
 * touching it. Two concurrent
 * tf.setBackend('wasm') calls on the uninitialised backend start two initialisations; tfjs's engine
 * then quietly resolves the earlier caller's setBackend with false (its init was superseded), which
 * made the server's first engine warm-up fail while a retry worked.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

let ready: Promise<typeof tf> | undefined;

/** Directory holding tfjs-backend-wasm's .wasm files (inside node_modules). */
export function wasmDirectory(): string {
  return dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
}

/**
 * Selects the wasm backend (idempotent; concurrent callers share one initialisation) and resolves with
 * the tfjs module nsfwjs and human also use.
 */
export function tfReady(): Promise<typeof tf> {
  ready ??= (async () => {
    // Quiet the "hi, looks like you are running TensorFlow.js in Node.js" banner.
    tf.env().set('IS_NODE', true);
    setWasmPaths(join(wasmDirectory(), '/'));
    const ok = await tf.setBackend('wasm');
    if (!ok) throw new Error('could not initialise the TensorFlow.js wasm backend');
    await tf.ready();
    return tf;
  })();
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}
