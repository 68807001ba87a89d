import { ERROR_CODES, type ErrorCode } from '../spec/errors.js';
import type { Generation } from '../spec/generation.js';
import { errorCodeForStatus } from '../rules/errorCode.js';

/** Codes of errors raised by the client itself (not sent by a server). */
export type ClientErrorCode = 'WAIT_TIMEOUT' | 'GENERATION_FAILED' | 'RESPONSE_VALIDATION' | 'NETWORK_ERROR';

export interface MediaGenErrorOptions {
  /** HTTP status of the response behind the error; 0 when there was no failing HTTP response. */
  status: number;
  code: ErrorCode | ClientErrorCode | (string & {});
  /** The server's `x-request-id` header, when the response carried one. */
  requestId?: string;
  cause?: unknown;
}

/**
 * Base of every error the client throws (aborts excepted: an aborted call rejects with the signal's
 * reason, as `fetch` does).
 *
 * `status` is the HTTP status of the response that caused the error, or 0 when no HTTP response failed
 * (network errors, wait timeouts, failed generations).
 */
export class MediaGenError extends Error {
  override name = 'MediaGenError';
  readonly status: number;
  readonly code: string;
  readonly requestId?: string;

  constructor(message: string, options: MediaGenErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }
}

type ApiErrorOptions = Omit<MediaGenErrorOptions, 'code'> & { code?: string };

/** 400 VALIDATION_ERROR: the request was refused; the message names the field and the limit. */
export class ValidationError extends MediaGenError {
  override name = 'ValidationError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'VALIDATION_ERROR', ...options });
  }
}

/** 401 UNAUTHORIZED: missing or invalid API key. */
export class UnauthorizedError extends MediaGenError {
  override name = 'UnauthorizedError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'UNAUTHORIZED', ...options });
  }
}

/** 402 PAYMENT_REQUIRED: insufficient credit balance. */
export class PaymentRequiredError extends MediaGenError {
  override name = 'PaymentRequiredError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'PAYMENT_REQUIRED', ...options });
  }
}

/** 403 FORBIDDEN: API key disabled or expired. */
export class ForbiddenError extends MediaGenError {
  override name = 'ForbiddenError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'FORBIDDEN', ...options });
  }
}

/** 404 NOT_FOUND: model or task not found, or generation id not found. */
export class NotFoundError extends MediaGenError {
  override name = 'NotFoundError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'NOT_FOUND', ...options });
  }
}

/** 429 RATE_LIMITED. `retryAfterMs` is the server's Retry-After, when it sent one. */
export class RateLimitedError extends MediaGenError {
  override name = 'RateLimitedError';
  readonly retryAfterMs?: number;
  constructor(message: string, options: ApiErrorOptions & { retryAfterMs?: number }) {
    super(message, { code: 'RATE_LIMITED', ...options });
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** 500 INTERNAL_ERROR (and any other 5xx, with its own status). */
export class InternalError extends MediaGenError {
  override name = 'InternalError';
  constructor(message: string, options: ApiErrorOptions) {
    super(message, { code: 'INTERNAL_ERROR', ...options });
  }
}

/** waitForGeneration / generate gave up: the generation did not finish within `timeoutMs`. */
export class WaitTimeoutError extends MediaGenError {
  override name = 'WaitTimeoutError';
  /** The last generation seen (still queued or processing); it may still complete later. */
  readonly generation: Generation;
  readonly polls: number;
  readonly elapsedMs: number;
  constructor(
    generation: Generation,
    details: { timeoutMs: number; polls: number; elapsedMs: number; requestId?: string },
  ) {
    super(
      `generation ${generation.id} is still ${generation.status} after waiting ${details.timeoutMs} ms ` +
        `(${details.polls} polls); it may still complete: poll GET /status/${generation.id} later`,
      { status: 0, code: 'WAIT_TIMEOUT', ...(details.requestId ? { requestId: details.requestId } : {}) },
    );
    this.generation = generation;
    this.polls = details.polls;
    this.elapsedMs = details.elapsedMs;
  }
}

/** The generation reached status `failed` (its credits are refunded by the server). */
export class GenerationFailedError extends MediaGenError {
  override name = 'GenerationFailedError';
  readonly generation: Generation;
  constructor(generation: Generation, requestId?: string) {
    const reason =
      typeof generation.error_message === 'string' && generation.error_message !== ''
        ? `: ${generation.error_message}`
        : '';
    super(`generation ${generation.id} failed${reason}`, {
      status: 0,
      code: 'GENERATION_FAILED',
      ...(requestId ? { requestId } : {}),
    });
    this.generation = generation;
  }
}

/** A response whose body is not JSON or does not match the spec's schema. `field` names where it failed. */
export class ResponseValidationError extends MediaGenError {
  override name = 'ResponseValidationError';
  /** Dotted path of the first mismatching field, e.g. `data.status`; `(body)` when the body as a whole is wrong. */
  readonly field: string;
  constructor(message: string, options: Omit<MediaGenErrorOptions, 'code'> & { field: string }) {
    super(message, { ...options, code: 'RESPONSE_VALIDATION' });
    this.field = options.field;
  }
}

/** The server could not be reached, or the connection failed before a response arrived. */
export class NetworkError extends MediaGenError {
  override name = 'NetworkError';
  /** True when the request surely never reached the server. */
  readonly notSent: boolean;
  constructor(message: string, options: { notSent: boolean; cause?: unknown }) {
    super(message, { status: 0, code: 'NETWORK_ERROR', cause: options.cause });
    this.notSent = options.notSent;
  }
}

const CLASS_OF_CODE = {
  VALIDATION_ERROR: ValidationError,
  UNAUTHORIZED: UnauthorizedError,
  PAYMENT_REQUIRED: PaymentRequiredError,
  FORBIDDEN: ForbiddenError,
  NOT_FOUND: NotFoundError,
  RATE_LIMITED: RateLimitedError,
  INTERNAL_ERROR: InternalError,
} as const satisfies Record<ErrorCode, unknown>;

function isErrorCode(value: string | undefined): value is ErrorCode {
  return value !== undefined && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The typed error for a failing HTTP response. The class follows the body's `error.code` when it is one
 * of the spec's codes, else the HTTP status (spec 7; other 4xx -> ValidationError, other 5xx -> InternalError).
 */
export function errorForResponse(input: {
  status: number;
  code?: string;
  message: string;
  requestId?: string;
  retryAfterMs?: number;
}): MediaGenError {
  const code: ErrorCode = isErrorCode(input.code) ? input.code : errorCodeForStatus(input.status);
  const options = {
    status: input.status,
    code: input.code ?? code,
    ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
  };
  if (code === 'RATE_LIMITED') {
    return new RateLimitedError(input.message, {
      ...options,
      ...(input.retryAfterMs !== undefined ? { retryAfterMs: input.retryAfterMs } : {}),
    });
  }
  return new CLASS_OF_CODE[code](input.message, options);
}
