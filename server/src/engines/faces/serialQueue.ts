/**
 * Runs async tasks one at a time, in order. The detector is one model instance on one WASM thread:
 * queuing calls keeps concurrent requests from interleaving inside it (nothing is loaded twice).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
