import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { DetectedFaces, DetectFacesRequest } from '@mediagen/core';
import type { ToolContext } from '../context.js';
import { mimeTypeOf, success } from '../results.js';
import { runTool } from '../runTool.js';

/** detect_faces: step 1 of a face swap (POST /face-swap/detect). Free, read-only. */
export function registerDetectFaces(server: McpServer, ctx: ToolContext) {
  return server.registerTool(
    'detect_faces',
    {
      title: 'Detect faces',
      description:
        'Find the faces in an image (step 1 of a face swap). Returns the URLs of the cropped faces, in order; ' +
        'pass one of them to face_swap as source_face_url (or pass the image to face_swap with face_index). ' +
        'faces is empty, with a message, when no face is found. Free.',
      inputSchema: z.strictObject({
        source_image: DetectFacesRequest.shape.source_image.describe(
          'Public http(s) URL of an image with one or more faces',
        ),
      }),
      outputSchema: DetectedFaces,
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: true },
    },
    async ({ source_image }, extra) =>
      runTool(ctx, 'detect_faces', extra, async (client, call) => {
        const detected = await client.detectFaces(source_image, { signal: call.signal });
        const links: ContentBlock[] = detected.faces.map((uri, index) => ({
          type: 'resource_link',
          uri,
          name: `face-${index}`,
          title: `Face ${index} (face_index ${index})`,
          mimeType: mimeTypeOf(uri, 'image'),
        }));
        const notes =
          detected.faces.length === 0
            ? [
                `No face found${detected.message ? `: ${detected.message}` : ''}. Try another image with a clearly visible face.`,
              ]
            : [`Found ${detected.faces.length} face(s). Use one URL as face_swap's source_face_url.`];
        return success(detected, { notes, links });
      }),
  );
}
