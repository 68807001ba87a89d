import { MediaGenError, NetworkError, WaitTimeoutError } from '@mediagen/core';
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

const BASE_URL_HINT =
  'Check the Base URL of the MediaGen API credential: it is the API root including /api/v3, for example https://mediagen.example.com/api/v3.';

/** A 404 that no MediaGen route gave: the Base URL points at the wrong path or at another server. */
function isWrongBaseUrl(error: MediaGenError): boolean {
  return (
    error.status === 404 &&
    (/^no route for /.test(error.message) || /not the API's error envelope/.test(error.message))
  );
}

/**
 * Turns anything an operation threw into n8n's error types:
 * - an error response of the API (HTTP 4xx/5xx) -> NodeApiError with the HTTP status and the API's message;
 * - a wait that ran out -> NodeOperationError naming the generation id and how to fetch it later;
 * - everything else (failed generation, network, bad input) -> NodeOperationError.
 */
export function toNodeError(
  node: INode,
  error: unknown,
  itemIndex: number,
): NodeApiError | NodeOperationError {
  if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
  if (error instanceof MediaGenError && error.status >= 400) {
    const details = [`HTTP ${error.status} ${error.code}`];
    if (error.requestId) details.push(`request id ${error.requestId}`);

    return new NodeApiError(
      node,
      { status: error.status, code: error.code, message: error.message } as JsonObject,
      {
        message: error.message,
        description: details.join(', ') + (isWrongBaseUrl(error) ? `. ${BASE_URL_HINT}` : ''),
        httpCode: String(error.status),
        itemIndex,
      },
    );
  }
  if (error instanceof WaitTimeoutError) {
    const { generation } = error;
    return new NodeOperationError(
      node,
      `Generation ${generation.id} did not finish within the Max Wait (${Math.round(error.elapsedMs / 1000)} s); it is still ${generation.status}`,
      {
        itemIndex,
        description:
          `It may still complete. Fetch it later with this node's Generation > Get operation and ID ${generation.id} ` +
          `(GET /status/${generation.id}), or raise Options > Max Wait.`,
      },
    );
  }
  if (error instanceof NetworkError) {
    return new NodeOperationError(node, error.message, {
      itemIndex,
      description: `The MediaGen API could not be reached. Check that the server is running. ${BASE_URL_HINT} From n8n in Docker, localhost is the container itself: use the host's address.`,
    });
  }
  if (error instanceof Error) return new NodeOperationError(node, error, { itemIndex });
  return new NodeOperationError(node, String(error), { itemIndex });
}
