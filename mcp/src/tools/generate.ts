import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  formatValidationError,
  Generation,
  idempotencyKeyFor,
  Model,
  TASK_NAMES,
  TASK_PARAMS,
  outputTypeForTask,
} from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { pathSegmentField } from '../pathSegmentField.js';
import { waitSecondsField } from '../waitSecondsField.js';
import { ProgressReporter } from '../progress.js';
import { failure } from '../results.js';
import { runTool } from '../runTool.js';
import { waitForResult } from '../waitForResult.js';
import { priceNote, taskParamsDescription } from '../taskDocs.js';

/**
 * generate: submit a generation (POST /{model}/{task}), then wait for it within the bounded wait,
 * sending progress; hand over to get_generation when the wait runs out. Charged.
 */
export function registerGenerate(server: McpServer, ctx: ToolContext) {
  const cost = priceNote(
    ctx.catalog,
    ['image', 'video', 'audio'],
    "COSTS MONEY: each call is charged to the account when it is submitted (refunded automatically if the generation fails); list_models shows each model's lowest price (price_from_usd).",
  );
  return server.registerTool(
    'generate',
    {
      title: 'Generate an image, video or audio',
      description:
        'Generate media with a model of the catalog: text-to-image, image-to-image, text-to-video, image-to-video, reference-to-video, ' +
        'video-to-video, video-extend, text-to-speech, text-to-music. Pick the model slug and task with list_models. ' +
        `Submits the job, then waits up to wait_seconds (at most ${ctx.maxWaitSeconds} s) with progress notifications; ` +
        'returns the finished generation with a link to the output, or, if it is still processing, its id: then call get_generation with that id (never submit again, that charges again). ' +
        'Repeating a call with identical arguments returns the same generation instead of charging twice; to get another take change the prompt or give a seed. ' +
        cost,
      inputSchema: z.strictObject({
        model: pathSegmentField(Model.shape.slug).describe(
          'Model slug from list_models, e.g. the slug of an image model',
        ),
        task: z
          .enum(TASK_NAMES)
          .describe("One of the model's tasks (list_models shows them); decides the output type"),
        params: z.record(z.string(), z.unknown()).describe(taskParamsDescription()),
        wait_seconds: waitSecondsField(ctx, 'return the id at once'),
      }),
      outputSchema: Generation,
      annotations: {
        readOnlyHint: false,
        idempotentHint: false,
        destructiveHint: false,
        openWorldHint: true,
      },
    },
    async ({ model, task, params, wait_seconds }, extra) =>
      runTool(ctx, 'generate', extra, async (client, call) => {
        // strict: a misspelt field is named back to the assistant instead of being silently dropped.
        const parsed = TASK_PARAMS[task].strict().safeParse(params);
        if (!parsed.success) {
          const message = formatValidationError(
            new z.ZodError(
              parsed.error.issues.map((issue) => ({ ...issue, path: ['params', ...issue.path] })),
            ),
          );
          return failure(
            `VALIDATION_ERROR: ${message}\nWhat to do: fix the field(s) named above and call generate again; nothing was submitted or charged. ` +
              `The fields of ${task} are listed in the description of generate's params.`,
          );
        }
        const started = Date.now();
        const progress = new ProgressReporter(call);
        const idempotencyKey = idempotencyKeyFor({
          tool: 'generate',
          scope: ctx.idempotencyScope,
          model,
          task,
          params: parsed.data,
        });
        const submitted = await client.submit(model, task, parsed.data as Record<string, unknown>, {
          idempotencyKey,
          signal: call.signal,
        });
        await progress.report(
          `submitted ${outputTypeForTask(task)} generation ${submitted.id} (${submitted.model}); waiting for it`,
        );
        ctx.log(
          'info',
          `submitted generation ${submitted.id} (${submitted.model}, ${submitted.type})`,
          call.sessionId,
        );
        return waitForResult(ctx, client, call, submitted, {
          waitSeconds: wait_seconds,
          startedAt: started,
          progress,
        });
      }),
  );
}
