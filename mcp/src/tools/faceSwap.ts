import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DetectFacesRequest, FaceSwapRequest, Generation, idempotencyKeyFor } from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { waitSecondsField } from '../waitSecondsField.js';
import { ProgressReporter } from '../progress.js';
import { failure } from '../results.js';
import { runTool } from '../runTool.js';
import { waitForResult } from '../waitForResult.js';
import { priceNote } from '../taskDocs.js';

/** Face URL detected for a call's Idempotency-Key (bounded; a process-local memo like the key's scope). */
const detectedFaceFor = new Map<string, string>();
const MAX_REMEMBERED_FACES = 1000;

function rememberFace(key: string, url: string): void {
  if (detectedFaceFor.size >= MAX_REMEMBERED_FACES)
    detectedFaceFor.delete(detectedFaceFor.keys().next().value as string);
  detectedFaceFor.set(key, url);
}

/**
 * face_swap: swap a face into a target image, video or GIF (POST /face-swap), detecting the face first
 * when given a whole source image, then wait within the bounded wait like generate. Charged.
 */
export function registerFaceSwap(server: McpServer, ctx: ToolContext) {
  const cost = priceNote(
    ctx.catalog,
    ['face-swap'],
    'COSTS MONEY: charged when submitted (a fixed price for an image target; for a video the price scales with its duration), refunded automatically if the swap fails.',
  );
  return server.registerTool(
    'face_swap',
    {
      title: 'Swap a face',
      description:
        'Put a face onto the people in a target image, video or GIF. Give either source_face_url (a face URL from detect_faces) ' +
        'or source_image plus face_index (the face is detected for you). ' +
        `Waits up to wait_seconds (at most ${ctx.maxWaitSeconds} s) with progress; if still processing, call get_generation with the returned id (do not submit again). ` +
        'Repeating a call with identical arguments returns the same swap instead of charging twice. ' +
        cost,
      inputSchema: z.strictObject({
        source_face_url: FaceSwapRequest.shape.source_face_url
          .optional()
          .describe('A cropped face URL returned by detect_faces. Give this or source_image.'),
        source_image: DetectFacesRequest.shape.source_image
          .optional()
          .describe(
            'Public http(s) URL of an image with the face to use; face_index picks which face. Give this or source_face_url.',
          ),
        face_index: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('With source_image: which detected face to use, 0 = the first (default 0)'),
        target_media: FaceSwapRequest.shape.target_media.describe(
          'Public http(s) URL of the target image, video or GIF',
        ),
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
    async ({ source_face_url, source_image, face_index, target_media, wait_seconds }, extra) =>
      runTool(ctx, 'face_swap', extra, async (client, call) => {
        if ((source_face_url === undefined) === (source_image === undefined)) {
          return failure(
            `VALIDATION_ERROR: give exactly one of source_face_url and source_image (${source_face_url === undefined ? 'neither was given' : 'both were given'}).\n` +
              'What to do: pass a face URL from detect_faces as source_face_url, or the whole image as source_image (with face_index); nothing was charged.',
          );
        }
        if (face_index !== undefined && source_image === undefined) {
          return failure(
            'VALIDATION_ERROR: face_index applies only with source_image.\nWhat to do: drop face_index, or pass source_image instead of source_face_url; nothing was charged.',
          );
        }
        const started = Date.now();
        const progress = new ProgressReporter(call);
        // The key comes from the call's own arguments. With source_image, the face URL detect returns
        // is signed anew on every detection, so the first one is remembered for the key: a retried call
        // then sends the very same request and the server replays it instead of charging again.
        const idempotencyKey = idempotencyKeyFor({
          tool: 'face_swap',
          scope: ctx.idempotencyScope,
          source_face_url,
          source_image,
          face_index: source_image === undefined ? undefined : (face_index ?? 0),
          target_media,
        });
        let faceUrl = source_face_url ?? detectedFaceFor.get(idempotencyKey);
        if (faceUrl === undefined && source_image !== undefined) {
          await progress.report('detecting faces in source_image');
          const detected = await client.detectFaces(source_image, { signal: call.signal });
          const index = face_index ?? 0;
          faceUrl = detected.faces[index];
          if (faceUrl === undefined) {
            return failure(
              detected.faces.length === 0
                ? `No face found in source_image${detected.message ? ` (${detected.message})` : ''}.\nWhat to do: use an image with a clearly visible face; nothing was charged.`
                : `VALIDATION_ERROR: face_index ${index} is out of range: source_image has ${detected.faces.length} face(s), so face_index must be 0 to ${detected.faces.length - 1}.\nWhat to do: pick a face_index in that range; nothing was charged.`,
            );
          }
          rememberFace(idempotencyKey, faceUrl);
        }
        const submitted = await client.faceSwap(faceUrl!, target_media, {
          idempotencyKey,
          signal: call.signal,
        });
        await progress.report(
          `submitted face swap ${submitted.id} (${submitted.type} target); waiting for it`,
        );
        ctx.log(
          'info',
          `submitted face swap ${submitted.id} (${submitted.model}, ${submitted.type})`,
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
