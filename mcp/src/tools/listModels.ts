import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Model, ModelType } from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { success } from '../results.js';
import { runTool } from '../runTool.js';

/** list_models: the catalog (GET /models), optionally one type. Free, read-only. */
export function registerListModels(server: McpServer, ctx: ToolContext) {
  return server.registerTool(
    'list_models',
    {
      title: 'List models',
      description:
        "List the mediagen catalog: each model's slug, name, type, supported tasks and lowest price per generation (price_from_usd, USD). " +
        'Use a slug and one of its tasks with generate. The face-swap and moderation entries are used through the face_swap / detect_faces and moderate tools. Free.',
      inputSchema: z.strictObject({
        type: ModelType.optional().describe(
          'Only models of this type: image, video, audio, face-swap or moderation',
        ),
      }),
      outputSchema: { models: z.array(Model) },
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ type }, extra) =>
      runTool(ctx, 'list_models', extra, async (client, call) => {
        const models = await client.listModels({ signal: call.signal });
        const chosen = type ? models.filter((m) => m.type === type) : models;
        return success({ models: chosen });
      }),
  );
}
