import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  formatValidationError,
  MODERATION_LIMITS,
  ModerationRequest,
  ModerationResultImageText,
  ModerationResultVideo,
} from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { failure, success } from '../results.js';
import { runTool } from '../runTool.js';

const fields = ModerationRequest.shape;
const video = ModerationResultVideo.shape;

/**
 * The moderation result as one object schema (an outputSchema must be an object): the image/text shape,
 * with the video-only fields optional. Derived from the core's two result schemas.
 */
export const ModerationOutput = z.looseObject({
  ...ModerationResultImageText.shape,
  media_type: z.enum([...ModerationResultImageText.shape.media_type.options, video.media_type.value]),
  frames_checked: video.frames_checked.optional(),
  frames: video.frames.optional(),
});

/** moderate: classify one image, video or text against a policy (POST /moderation, synchronous). */
export function registerModerate(server: McpServer, ctx: ToolContext) {
  const L = MODERATION_LIMITS;
  return server.registerTool(
    'moderate',
    {
      title: 'Moderate content',
      description:
        'Check one image, video or text against a policy (nsfw, violence or hate) and get a verdict: nsfw is true when score >= threshold ' +
        '(the field is named nsfw whatever the policy). Send exactly one of image_url, video_url, text. Synchronous; video is sampled into frames. ' +
        `Cost: the first ${L.freeCalls} calls of an account are free, then $0.001 per call (charged 1 cent per ${L.batchSize} calls); one policy per call.`,
      inputSchema: z.strictObject({
        image_url: fields.image_url.describe('Public http(s) URL of an image'),
        video_url: fields.video_url.describe(
          `Public http(s) URL of a video (${L.videoMaxBytes / 1024 / 1024} MB at most)`,
        ),
        text: fields.text.describe(`Plain text, at most ${L.textMaxLength} characters`),
        policy: fields.policy.describe('nsfw (default), violence or hate'),
        threshold: fields.threshold.describe(
          `Score at or above which the content counts as a violation, ${L.thresholdMin} to ${L.thresholdMax}, default ${L.thresholdDefault}`,
        ),
        max_frames: fields.max_frames.describe(
          `Video only: frames to sample, ${L.maxFramesMin} to ${L.maxFramesMax}, default ${L.maxFramesDefault}`,
        ),
      }),
      outputSchema: ModerationOutput,
      annotations: { readOnlyHint: true, idempotentHint: false, destructiveHint: false, openWorldHint: true },
    },
    async (args, extra) =>
      runTool(ctx, 'moderate', extra, async (client, call) => {
        const parsed = ModerationRequest.safeParse(args);
        if (!parsed.success) {
          return failure(
            `VALIDATION_ERROR: ${formatValidationError(parsed.error)}\nWhat to do: fix the field(s) named above and call moderate again; nothing was charged.`,
          );
        }
        const result = await client.moderate(parsed.data, { signal: call.signal });
        const verdict = result.nsfw ? 'VIOLATES' : 'does not violate';
        return success(result, {
          notes: [
            `The ${result.media_type} ${verdict} the ${result.policy} policy (score ${result.score} against threshold ${result.threshold}).`,
          ],
        });
      }),
  );
}
