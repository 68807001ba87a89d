/**
 * A strictly serial queue: the wasm backend runs one inference at a time on one thread anyway, so
 * concurrent requests wait their turn here instead of interleaving tensor work (which only adds
 * memory). An aborted caller leaves the queue without running its job.
 */
export class InferenceQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Number of jobs queued or running. */
  get size(): number {
    return this.waiting;
  }

  run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(() => {
      signal?.throwIfAborted();
      return job();
    });
    const settled = result.finally(() => {
      this.waiting -= 1;
    });
    this.tail = settled.catch(() => undefined);
    return settled;
  }
}
