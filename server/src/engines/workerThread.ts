/**
 * A model that runs in a worker thread of its own (the nsfw classifier, the face detector), seen from
 * the main thread: start the worker, wait until it says it has loaded, send it requests and match the
 * replies. WebAssembly inference is synchronous, tens to hundreds of milliseconds a call; in a worker
 * it does not block the server's event loop, so the other requests go on on the other core.
 *
 * The protocol (the worker side is written by each worker, see nsfwWorker.ts and faceWorker.ts):
 *   main -> worker: { type: 'request', id, payload } and { type: 'cancel', id }
 *   worker -> main: { type: 'ready', info } or { type: 'load-failed', message } once, then
 *                   { type: 'result', id, value } or { type: 'failed', id, message } per request.
 * The worker keeps the process alive only while a request waits for it. If it dies, every waiting
 * request rejects and the client is marked broken, so the owner can start a new one.
 */
import { Worker, type Transferable } from 'node:worker_threads';

export type WorkerRequestMessage<P> =
  { type: 'request'; id: number; payload: P } | { type: 'cancel'; id: number };

export type WorkerReplyMessage<I, V> =
  | { type: 'ready'; info: I }
  | { type: 'load-failed'; message: string }
  | { type: 'result'; id: number; value: V }
  | { type: 'failed'; id: number; message: string };

export interface WorkerClient<I, P, V> {
  /** What the worker said about itself when it was ready (model size, runtime, ...). */
  readonly info: I;
  /** Sends one request; `transfer` lists buffers handed over (no copy). Aborting rejects at once. */
  request(payload: P, transfer?: Transferable[], signal?: AbortSignal): Promise<V>;
  /** Stops the worker; later requests reject. */
  close(): Promise<void>;
  /** Called once when the worker is gone (closed, crashed or exited). */
  onGone(listener: () => void): void;
}

/**
 * Starts `./<name>.js` next to the calling module (`from` is its import.meta.url). From compiled
 * JavaScript (server/dist) that file exists; from TypeScript sources (tests, benchmarks under tsx or
 * vitest) the worker first registers tsx's loader and then imports `./<name>.ts`.
 */
function startWorker(from: string, name: string, workerData: unknown): Worker {
  const fromSource = from.endsWith('.ts');
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, from);
  const options = { workerData, name };
  if (!fromSource) return new Worker(entry, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Starts the worker and resolves once it has loaded its model (rejects if it could not). */
export function startWorkerClient<I, P, V>(
  from: string,
  name: string,
  workerData: unknown,
): Promise<WorkerClient<I, P, V>> {
  const worker = startWorker(from, name, workerData);
  /** Requests sent and not yet answered; `done` removes the request's abort listener. */
  const waiting = new Map<
    number,
    { resolve: (v: V) => void; reject: (e: unknown) => void; done: () => void }
  >();
  const goneListeners: Array<() => void> = [];
  let nextId = 1;
  let broken: Error | undefined;

  worker.unref();
  const settle = (id: number) => {
    const entry = waiting.get(id);
    waiting.delete(id);
    entry?.done();
    if (waiting.size === 0) worker.unref();
    return entry;
  };
  const gone = (error: Error) => {
    if (broken) return;
    broken = error;
    for (const id of [...waiting.keys()]) settle(id)?.reject(error);
    for (const listener of goneListeners) listener();
  };

  return new Promise((resolveStart, rejectStart) => {
    worker.on('error', (error) => {
      gone(new Error(`${name} failed: ${error.message}`));
      rejectStart(error);
    });
    worker.on('exit', (code) => {
      gone(new Error(`${name} exited (code ${code})`));
      rejectStart(new Error(`${name} exited before it was ready (code ${code})`));
    });
    worker.on('message', (reply: WorkerReplyMessage<I, V>) => {
      switch (reply.type) {
        case 'result':
          settle(reply.id)?.resolve(reply.value);
          return;
        case 'failed':
          settle(reply.id)?.reject(new Error(reply.message));
          return;
        case 'load-failed':
          rejectStart(new Error(reply.message));
          void worker.terminate();
          return;
        case 'ready':
          resolveStart({
            info: reply.info,
            request(payload, transfer = [], signal) {
              return new Promise<V>((resolve, reject) => {
                if (broken) throw broken;
                signal?.throwIfAborted();
                const id = nextId++;
                const onAbort = () => {
                  if (!waiting.has(id)) return;
                  worker.postMessage({ type: 'cancel', id } satisfies WorkerRequestMessage<P>);
                  settle(id)?.reject(signal!.reason);
                };
                // Removed once answered: a job's signal outlives its many requests (a frame each).
                const done = () => signal?.removeEventListener('abort', onAbort);
                waiting.set(id, { resolve, reject, done });
                worker.ref();
                const message: WorkerRequestMessage<P> = { type: 'request', id, payload };
                worker.postMessage(message, transfer);
                signal?.addEventListener('abort', onAbort, { once: true });
              });
            },
            async close() {
              await worker.terminate();
            },
            onGone(listener) {
              if (broken) listener();
              else goneListeners.push(listener);
            },
          });
          return;
      }
    });
  });
}
