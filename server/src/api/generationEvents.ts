/**
 * Wakes `Prefer: wait=N` requests when a generation finishes. One dedicated connection per API
 * process LISTENs on channel `mediagen_generation`; the worker (any process) NOTIFYs the generation
 * id in the transaction that completes or fails it. No polling loop.
 */
import pg from 'pg';
import type { Logger } from '../log.js';

export class GenerationEvents {
  private client: pg.Client | undefined;
  private readonly waiters = new Map<string, Set<() => void>>();
  private closed = false;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (msg) => {
      if (msg.payload) this.wake(msg.payload);
    });
    client.on('error', (err) => {
      this.log.warn(`LISTEN connection lost: ${err.message}; reconnecting`);
    });
    client.on('end', () => {
      this.client = undefined;
      this.connecting = undefined;
      // Wake everyone so they re-read the row; then reconnect.
      for (const id of [...this.waiters.keys()]) this.wake(id);
      if (!this.closed) setTimeout(() => void this.start().catch(() => undefined), 500).unref();
    });
    await client.connect();
    await client.query('LISTEN mediagen_generation');
    this.client = client;
  }

  private wake(id: string) {
    const set = this.waiters.get(id);
    if (!set) return;
    this.waiters.delete(id);
    for (const fn of set) fn();
  }

  /** Resolves when `id` is notified, after `ms`, or when the request is aborted. Register before reading the row. */
  waitFor(id: string, ms: number, signal?: AbortSignal): { promise: Promise<void>; cancel: () => void } {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => (done = resolve));
    const set = this.waiters.get(id) ?? new Set();
    this.waiters.set(id, set);
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      set.delete(finish);
      if (set.size === 0 && this.waiters.get(id) === set) this.waiters.delete(id);
      done();
    };
    set.add(finish);
    const timer = setTimeout(finish, ms);
    signal?.addEventListener('abort', finish);
    return { promise, cancel: finish };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.waiters.keys()]) this.wake(id);
    await this.client?.end().catch(() => undefined);
  }
}
