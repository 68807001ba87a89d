/**
 * Requests Node's HTTP parser refuses before Express sees them (headers over `maxHeaderSize`, bytes
 * that are not HTTP): by default Node answers a bare `431`/`400` with no body. These answers use the
 * spec's envelope and name the limit, like every other bad input.
 */
import { STATUS_OF_ERROR_CODE } from '@mediagen/core';
import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

function envelope(message: string): string {
  const body = JSON.stringify({ success: false, error: { code: 'VALIDATION_ERROR', message } });
  return (
    `HTTP/1.1 ${STATUS_OF_ERROR_CODE.VALIDATION_ERROR} Bad Request\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing can be answered on a reset or closed socket.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const message =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? `request headers are too large; the limit is ${maxHeaderSize} bytes for all headers together`
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'the request was not received in time'
          : 'malformed HTTP request';
    socket.end(envelope(message));
  });
}
