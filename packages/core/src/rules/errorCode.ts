import { ERROR_CODES, STATUS_OF_ERROR_CODE, type ErrorCode } from '../spec/errors.js';

/** The spec's error code for an HTTP status (spec 7); other 4xx map to VALIDATION_ERROR, 5xx to INTERNAL_ERROR. */
export function errorCodeForStatus(status: number): ErrorCode {
  for (const code of ERROR_CODES) {
    if (STATUS_OF_ERROR_CODE[code] === status) return code;
  }
  return status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR';
}

/** The HTTP status of an error code (spec 7). */
export function statusForErrorCode(code: ErrorCode): number {
  return STATUS_OF_ERROR_CODE[code];
}
