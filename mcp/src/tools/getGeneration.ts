import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Generation } from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { pathSegmentField } from '../pathSegmentField.js';
import { waitSecondsField } from '../waitSecondsField.js';
import { ProgressReporter } from '../progress.js';
import { runTool } from '../runTool.js';
import { waitForResult } from '../waitForResult.js';

/** get_generation: the state of a generation or face swap (GET /status/{id}), waiting again if asked. */
export function registerGetGeneration(server: McpServer, ctx: ToolContext) {
  return server.registerTool(
    'get_generation',
    {
      title: 'Get a generation',
      description:
        'Get the status and output of a generation or face swap by its id (from generate or face_swap). ' +
        `While it is still queued or processing this waits for it (up to wait_seconds, at most ${ctx.maxWaitSeconds} s), ` +
        'polling at the recommended interval and reporting progress; call it again if it is still processing. Free.',
      inputSchema: z.strictObject({
        id: pathSegmentField(Generation.shape.id).describe(
          'The generation id returned by generate or face_swap',
        ),
        wait_seconds: waitSecondsField(ctx, 'just look'),
      }),
      outputSchema: Generation,
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ id, wait_seconds }, extra) =>
      runTool(ctx, 'get_generation', extra, async (client, call) => {
        const started = Date.now();
        const progress = new ProgressReporter(call);
        return waitForResult(ctx, client, call, id, {
          waitSeconds: wait_seconds,
          startedAt: started,
          progress,
        });
      }),
  );
}
