/**
 * Error responses: `{success: false, error: {code, message}}` (spec 7) with the status of the code.
 * Every failure path ends here; unknown errors become a 500 with a generic message and the request
 * id (the detail goes to the log, never to the client: no stack trace leaves the server).
 */
import { STATUS_OF_ERROR_CODE, type ErrorCode } from '@mediagen/core';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../log.js';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  get status(): number {
    return STATUS_OF_ERROR_CODE[this.code];
  }
}

export function sendError(
  res: Response,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(STATUS_OF_ERROR_CODE[code]).json({ success: false, error: { code, message } });
}

/**
 * The 500 for a failure of ours in a step the spec names ("moderation classification failed"): the
 * client is told which step failed and the request id to quote; the error itself (library words,
 * temp paths, the operator's configuration) goes to the log only.
 */
export function internalError(res: Response, log: Logger, step: string, err: unknown): ApiError {
  return new ApiError('INTERNAL_ERROR', `${step}: ${logInternal(res, log, step, err)}`);
}

/** Logs an error of ours with the request id; answers what the client is told instead. */
function logInternal(res: Response, log: Logger, what: string, err: unknown): string {
  const requestId = String(res.getHeader('x-request-id') ?? '');
  log.error(`${what} [${requestId}]: ${(err as Error)?.stack ?? String(err)}`);
  return `internal error; quote request id ${requestId} when reporting it`;
}

export const notFound: RequestHandler = (req, res) => {
  sendError(res, 'NOT_FOUND', `no route for ${req.method} ${req.path}; see GET /openapi.json for the API`);
};

/** Body-parser and other errors carry `type`/`status`; map them to the envelope. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    void _next;
    if (err instanceof ApiError) return sendError(res, err.code, err.message, err.headers);
    const e = err as { type?: string; status?: number; limit?: number; message?: string };
    if (e.type === 'entity.too.large') {
      return sendError(res, 'VALIDATION_ERROR', `request body is too large; the limit is ${e.limit} bytes`);
    }
    if (e.type === 'entity.parse.failed') {
      return sendError(res, 'VALIDATION_ERROR', 'request body is not valid JSON');
    }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return sendError(res, 'VALIDATION_ERROR', `unsupported body encoding: ${e.message}`);
    }
    if (e.type === 'request.aborted') return; // client went away
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      return sendError(res, 'VALIDATION_ERROR', e.message ?? 'bad request');
    }
    sendError(res, 'INTERNAL_ERROR', logInternal(res, log, `${req.method} ${req.originalUrl} failed`, err));
  };
}

/** Wraps an async handler so its rejections reach the error handler (Express 5 does it too; explicit). */
export function route(fn: (...args: Parameters<RequestHandler>) => Promise<unknown>): RequestHandler {
  return (req, res, next) => {
    fn(req, res, next).catch(next);
  };
}
