import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  errorCodeForStatus,
  ForbiddenError,
  InternalError,
  MediaGenClient,
  MediaGenError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ResponseValidationError,
  statusForErrorCode,
  UnauthorizedError,
  ValidationError,
} from '../src/index.js';
import { fail, fakeClock, generation, json, ok, scriptedTransport } from './helpers/mocks.js';

const BASE = 'http://api.test/api/v3';

function clientFor(script: Parameters<typeof scriptedTransport>[0]) {
  const transport = scriptedTransport(script);
  const clock = fakeClock();
  const client = new MediaGenClient({
    transport,
    clock,
    apiKey: 'k',
    baseUrl: BASE,
    retry: { maxRetries: 0 },
  });
  return { client, transport, clock };
}

describe('every spec error code maps to its class', () => {
  const cases = [
    [400, 'VALIDATION_ERROR', ValidationError],
    [401, 'UNAUTHORIZED', UnauthorizedError],
    [402, 'PAYMENT_REQUIRED', PaymentRequiredError],
    [403, 'FORBIDDEN', ForbiddenError],
    [404, 'NOT_FOUND', NotFoundError],
    [429, 'RATE_LIMITED', RateLimitedError],
    [500, 'INTERNAL_ERROR', InternalError],
  ] as const;

  it('covers all seven codes of spec 7', () => {
    expect(cases.map(([, code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(cases)('HTTP %i %s -> %o with status, code, message, requestId', async (status, code, Class) => {
    const { client } = clientFor([
      fail(status, code, `the ${code} message`, { 'x-request-id': `req-${status}` }),
    ]);
    const error = await client.submit('flux', 'text-to-image', { prompt: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(MediaGenError);
    expect(error).toMatchObject({ status, code, message: `the ${code} message`, requestId: `req-${status}` });
    expect((error as Error).name).toBe(Class.name);
  });

  it.each(cases)('status %i without an error envelope still maps to %s', async (status, code, Class) => {
    const { client } = clientFor([
      { status, headers: { 'content-type': 'text/html' }, body: '<html>Bad Gateway</html>' },
    ]);
    const error = (await client.listModels().catch((e: unknown) => e)) as MediaGenError;
    expect(error).toBeInstanceOf(Class);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(
      new RegExp(
        `GET /models failed with HTTP ${status}; the body is not the API's error envelope: <html>Bad Gateway</html>`,
      ),
    );
    expect(error.requestId).toBeUndefined();
  });

  it('the body code wins over the status (a 400 carrying NOT_FOUND is NotFoundError)', async () => {
    const { client } = clientFor([fail(400, 'NOT_FOUND', 'no such model')]);
    const error = await client.getGeneration('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 400, code: 'NOT_FOUND' });
  });

  it('an unknown code keeps the server string, class by status', async () => {
    const { client } = clientFor([fail(409, 'CONFLICT', 'idempotency key reused with another body')]);
    const error = await client
      .submit('m', 'text-to-image', { prompt: 'a' }, { idempotencyKey: 'k1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'idempotency key reused with another body',
    });
  });

  it('502/503 map to InternalError with their own status', async () => {
    const { client } = clientFor([{ status: 503, headers: {}, body: '' }]);
    const error = await client.moderate({ text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 503, code: 'INTERNAL_ERROR' });
    expect((error as Error).message).toMatch(/\(empty body\)/);
  });

  it('a 429 carries retryAfterMs', async () => {
    const { client } = clientFor([fail(429, 'RATE_LIMITED', 'slow down', { 'retry-after': '7' })]);
    const error = await client.listModels().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(7000);
  });
});

describe('rules: status <-> code', () => {
  it.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'UNAUTHORIZED'],
    [402, 'PAYMENT_REQUIRED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
    [409, 'VALIDATION_ERROR'],
    [503, 'INTERNAL_ERROR'],
  ] as const)('%i -> %s', (status, code) => {
    expect(errorCodeForStatus(status)).toBe(code);
  });
  it('statusForErrorCode is the inverse for the seven codes', () => {
    for (const code of ERROR_CODES) expect(errorCodeForStatus(statusForErrorCode(code))).toBe(code);
  });
});

describe('responses that do not match the spec are ResponseValidationError naming the field', () => {
  it('a non-JSON success body', async () => {
    const { client } = clientFor([{ status: 200, headers: { 'x-request-id': 'r9' }, body: 'OK' }]);
    const error = (await client.listModels().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      field: '(body)',
      status: 200,
      code: 'RESPONSE_VALIDATION',
      requestId: 'r9',
    });
    expect(error.message).toMatch(/GET \/models: the response \(HTTP 200\) is not JSON: OK/);
  });
  it('a wrong status value names data.status', async () => {
    const { client } = clientFor([ok(generation({ status: 'done' }))]);
    const error = (await client.getGeneration('gen_1').catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.field).toBe('data.status');
    expect(error.message).toMatch(
      /GET \/status\/gen_1: the response does not match the API spec at data\.status/,
    );
  });
  it('a missing field names it', async () => {
    const { output_url: _drop, ...rest } = generation();
    const { client } = clientFor([ok(rest, 202)]);
    const error = (await client
      .submit('m', 'text-to-image', { prompt: 'a' })
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.field).toBe('data.output_url');
  });
  it('a catalog entry with a wrong type names its index', async () => {
    const models = [
      { slug: 'a', name: 'A', type: 'image', tasks: ['text-to-image'], price_from_usd: 0.01 },
      { slug: 'b', name: 'B', type: 'hologram', tasks: [], price_from_usd: null },
    ];
    const { client } = clientFor([ok(models)]);
    const error = (await client.listModels().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.field).toBe('data.1.type');
  });
  it('success:false with HTTP 200 is not accepted as data', async () => {
    const { client } = clientFor([json(200, { success: false, error: { code: 'X', message: 'y' } })]);
    const error = (await client.listModels().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.field).toBe('success');
  });
  it('a moderation video result without frames names frames_checked', async () => {
    const { client } = clientFor([
      ok({ nsfw: false, score: 0.1, threshold: 0.5, media_type: 'video', policy: 'nsfw', duration_ms: 9 }),
    ]);
    const error = (await client
      .moderate({ video_url: 'https://e.com/v.mp4' })
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.field).toMatch(/^data\.frames/);
  });
});
