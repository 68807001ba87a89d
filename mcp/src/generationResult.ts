import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MediaGenClient } from '@mediagen/core';
import type { ToolContext } from './context.js';
import { previewOf } from './preview.js';
import { failure, outputLinks, success } from './results.js';
import type { BoundedWait } from './waitBounded.js';

/**
 * The result of generate, face_swap and get_generation once their bounded wait is over:
 * - completed: the generation, a resource_link per output, and a small preview for images;
 * - failed: an isError result with the reason (the credits were refunded by the service);
 * - still queued/processing: the generation (output_url null) and a sentence telling the assistant to
 *   call get_generation with the id, which waits again.
 */
export async function generationResult(
  ctx: ToolContext,
  client: MediaGenClient,
  wait: BoundedWait,
  options: { signal: AbortSignal; waitedSeconds: number },
): Promise<CallToolResult> {
  const generation = wait.generation;
  if (generation.status === 'failed') {
    const reason = generation.error_message ? `: ${generation.error_message}` : '';
    return failure(
      `Generation ${generation.id} failed${reason}. Its credits were refunded automatically.\n` +
        `What to do: change the input (for example a reachable media URL, a supported format or a simpler prompt) or try another model, then call again.\n` +
        JSON.stringify(generation, null, 2),
    );
  }
  if (generation.status === 'completed') {
    const links = outputLinks(generation);
    const preview = ctx.previews ? await previewOf(client, generation, options.signal) : undefined;
    const count = links.length;
    const note =
      `Completed. ${count === 1 ? 'The output is' : `The ${count} outputs are`} at the linked URL${count === 1 ? '' : 's'} ` +
      `(signed, valid ${generation.expires_at ? `until ${generation.expires_at}` : 'for 7 days'}; download ${count === 1 ? 'it' : 'them'} before then).` +
      (preview ? ' A small preview thumbnail is attached; the linked file is the full result.' : '');
    return success(generation, { notes: [note], links, ...(preview ? { preview } : {}) });
  }
  const waited = options.waitedSeconds > 0 ? ` after waiting ${Math.round(options.waitedSeconds)} s` : '';
  return success(generation, {
    notes: [
      `Generation ${generation.id} is still ${generation.status}${waited}; it has been charged and keeps running. ` +
        `Call get_generation with id "${generation.id}" to wait for the result (do not submit again).`,
    ],
  });
}
