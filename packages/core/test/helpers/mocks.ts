import type {
  Clock,
  DownloadResponse,
  Transport,
  TransportRequest,
  TransportResponse,
} from '../../src/index.js';

/** A clock whose time moves only when the client sleeps: every sleep is recorded and returns at once. */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock & { sleeps: number[]; advance(ms: number): void } = {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
  return clock;
}

export type Handler = (
  req: TransportRequest,
  index: number,
) => TransportResponse | Promise<TransportResponse>;

/** A transport that answers with `handler` and records every request. */
export function mockTransport(handler: Handler) {
  const requests: TransportRequest[] = [];
  const transport: Transport & { requests: TransportRequest[] } = {
    requests,
    async request(req) {
      requests.push(req);
      return handler(req, requests.length - 1);
    },
  };
  return transport;
}

/** A transport answering the given responses in order (a function entry may throw). */
export function scriptedTransport(script: Array<TransportResponse | (() => TransportResponse)>) {
  return mockTransport((_req, index) => {
    const step = script[index];
    if (step === undefined) throw new Error(`unexpected request #${index + 1}`);
    return typeof step === 'function' ? step() : step;
  });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function ok(data: unknown, status = 200, headers: Record<string, string> = {}): TransportResponse {
  return json(status, { success: true, data }, headers);
}

export function fail(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return json(status, { success: false, error: { code, message } }, headers);
}

export function generation(overrides: Record<string, unknown> = {}) {
  return {
    id: 'gen_1',
    status: 'processing',
    model: 'Test Image',
    type: 'image',
    output_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function streamOf(...chunks: string[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (const chunk of chunks) yield new TextEncoder().encode(chunk);
  })();
}

export function downloadResponse(
  status: number,
  headers: Record<string, string>,
  ...chunks: string[]
): DownloadResponse {
  return { status, headers, body: streamOf(...chunks) };
}

export async function collect(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
