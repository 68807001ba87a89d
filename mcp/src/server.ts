import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MediaGenClient, Model } from '@mediagen/core';
import { callTimeoutSecondsFor, configFromEnv } from './config.js';
import { registerConformanceFixtures } from './conformanceFixtures.js';
import { clientResolver, type ToolContext } from './context.js';
import { registerDetectFaces } from './tools/detectFaces.js';
import { registerFaceSwap } from './tools/faceSwap.js';
import { registerGenerate } from './tools/generate.js';
import { registerGetGeneration } from './tools/getGeneration.js';
import { registerListModels } from './tools/listModels.js';
import { registerModerate } from './tools/moderate.js';

export const SERVER_NAME = 'mediagen';
export const SERVER_VERSION = '0.1.0';

export interface CreateServerOptions {
  /** A ready client; otherwise one is made from apiKey/baseUrl (falling back to MEDIAGEN_API_KEY / MEDIAGEN_BASE_URL). */
  client?: MediaGenClient;
  apiKey?: string;
  baseUrl?: string;
  /** HTTP hosting: use the request's `Authorization: Bearer <key>` as the API key when present. */
  keyFromAuthorizationHeader?: boolean;
  /** Longest wait of one tool call (default MEDIAGEN_MCP_MAX_WAIT_SECONDS or 45). */
  maxWaitSeconds?: number;
  /**
   * Longest time one tool call may take in all (default MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS, else the larger
   * of 55 and the maximum wait + 10).
   */
  callTimeoutSeconds?: number;
  /** Attach preview thumbnails to image results (default true unless MEDIAGEN_MCP_PREVIEW=off). */
  previews?: boolean;
  /** The catalog, for the prices quoted in the charged tools' descriptions (see loadCatalog in cli.ts). */
  catalog?: Model[];
  /** Mixed into Idempotency-Keys; default: one random value per process. */
  idempotencyScope?: string;
  /** TEST ONLY: also register the conformance suite's fixture tools (see conformanceFixtures.ts). */
  conformanceFixtures?: boolean;
}

const PROCESS_SCOPE = randomUUID();

/**
 * The MCP server with its six tools, one file each under tools/. It holds no state of its own beyond
 * its options: every fact lives in the mediagen API. One McpServer serves one client connection
 * (stdio, or one Streamable HTTP session).
 */
export function createServer(options: CreateServerOptions = {}): McpServer {
  const env = configFromEnv();
  const server = new McpServer(
    {
      name: SERVER_NAME,
      version: SERVER_VERSION,
      title: 'mediagen: media generation, face swap and moderation',
    },
    {
      capabilities: { tools: {}, logging: {} },
      instructions:
        'Tools for the mediagen API. Start with list_models to pick a model slug and task, then call generate. ' +
        'generate and face_swap cost money; when they return a generation that is still processing, call get_generation with its id instead of submitting again. ' +
        'Outputs are links (resource_link) valid for 7 days.',
    },
  );
  const ctx: ToolContext = {
    clientFor: clientResolver({
      ...(options.client ? { client: options.client } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      keyFromAuthorizationHeader: options.keyFromAuthorizationHeader ?? false,
    }),
    baseUrl: options.client?.baseUrl ?? options.baseUrl ?? process.env.MEDIAGEN_BASE_URL,
    maxWaitSeconds: options.maxWaitSeconds ?? env.maxWaitSeconds,
    callTimeoutSeconds: callTimeoutSecondsFor(
      options.maxWaitSeconds ?? env.maxWaitSeconds,
      options.callTimeoutSeconds ?? env.callTimeoutSeconds,
    ),
    previews: options.previews ?? env.previews,
    catalog: options.catalog ?? [],
    idempotencyScope: options.idempotencyScope ?? PROCESS_SCOPE,
    log: (level, message, sessionId) => {
      if (server.isConnected())
        void server
          .sendLoggingMessage({ level, logger: 'mediagen', data: message }, sessionId)
          .catch(() => {});
    },
  };
  registerListModels(server, ctx);
  registerGenerate(server, ctx);
  registerGetGeneration(server, ctx);
  registerDetectFaces(server, ctx);
  registerFaceSwap(server, ctx);
  registerModerate(server, ctx);
  if (options.conformanceFixtures) registerConformanceFixtures(server, ctx);
  return server;
}
