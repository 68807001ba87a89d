import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  type CallToolResult,
  type ContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import { inject } from 'vitest';
import { createServer, type CreateServerOptions } from '../src/server.js';

export function fixtureUrl(name: string): string {
  return `${inject('filesUrl')}${name}`;
}

/** The SDK's real Client connected in process to a real McpServer over the SDK's InMemoryTransport. */
export async function connectInProcess(options: CreateServerOptions = {}) {
  const server = createServer({
    baseUrl: inject('baseUrl'),
    apiKey: inject('apiKey'),
    previews: true,
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mediagen-mcp-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    server,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export function contentOf(result: unknown): ContentBlock[] {
  return (result as CallToolResult).content;
}

/** All text blocks, joined. */
export function textOf(result: unknown): string {
  return contentOf(result)
    .filter((c): c is Extract<ContentBlock, { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** The first text block parsed as JSON: must equal structuredContent. */
export function jsonTextOf(result: unknown): unknown {
  const first = contentOf(result)[0];
  if (first?.type !== 'text') throw new Error('first content block is not text');
  return JSON.parse(first.text);
}

/**
 * What an assistant does with a result that is still processing: call get_generation with its id until
 * the generation is done (each call waits within the bounded wait). Keeps the tests right on a slow,
 * shared machine, where a generation may outlast one bounded wait.
 */
export async function followUntilDone(
  client: Client,
  result: CallToolResult,
  options: { onprogress?: (p: { progress: number; message?: string }) => void; maxCalls?: number } = {},
): Promise<{ result: CallToolResult; handovers: number }> {
  let current = result;
  let handovers = 0;
  for (let i = 0; i < (options.maxCalls ?? 8); i++) {
    const g = current.structuredContent as { id: string; status: string } | undefined;
    if (current.isError || !g || g.status === 'completed' || g.status === 'failed') break;
    if (!textOf(current).includes(`Call get_generation with id "${g.id}"`)) {
      throw new Error(`a processing result without the handover sentence: ${textOf(current)}`);
    }
    handovers++;
    current = (await client.callTool(
      { name: 'get_generation', arguments: { id: g.id } },
      CallToolResultSchema,
      {
        timeout: 120_000,
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
      },
    )) as CallToolResult;
  }
  return { result: current, handovers };
}
