import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from './context.js';
import { ProgressReporter } from './progress.js';
import { failure } from './results.js';

/**
 * TEST-ONLY tools that the official conformance suite (`@modelcontextprotocol/conformance`, server mode)
 * calls by name to check protocol features: text results, isError results, progress notifications,
 * logging notifications and image content. They are registered only by `mediagen-mcp --http
 * --conformance-fixtures` (scripts/suites/mcp-conformance.mjs) and never in normal use.
 *
 * They run through the same paths as the real tools (this server's HTTP sessions, ProgressReporter,
 * the logging sink, results.ts), so a scenario that fails here points at a defect those tools share.
 * Their payloads are the ones the suite prescribes.
 */
export function registerConformanceFixtures(server: McpServer, ctx: ToolContext): void {
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  server.registerTool(
    'test_simple_text',
    { description: 'Conformance fixture: returns one text block', annotations: { readOnlyHint: true } },
    () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
  );

  server.registerTool(
    'test_error_handling',
    {
      description: 'Conformance fixture: always returns an isError result',
      annotations: { readOnlyHint: true },
    },
    () => failure('This tool intentionally returns an error for testing'),
  );

  server.registerTool(
    'test_tool_with_progress',
    {
      description: 'Conformance fixture: reports progress 0, 50, 100 of 100',
      annotations: { readOnlyHint: true },
    },
    async (extra) => {
      const progress = new ProgressReporter(extra);
      for (const value of [0, 50, 100]) {
        await progress.report(`step ${value}/100`, { progress: value, total: 100 });
        if (value < 100) await delay(50);
      }
      return { content: [{ type: 'text', text: 'Progress test completed' }] };
    },
  );

  server.registerTool(
    'test_tool_with_logging',
    {
      description: 'Conformance fixture: sends three info log messages',
      annotations: { readOnlyHint: true },
    },
    async (extra) => {
      for (const [i, message] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (i > 0) await delay(50);
        ctx.log('info', message, extra.sessionId);
      }
      return { content: [{ type: 'text', text: 'Logging test completed' }] };
    },
  );

  // A 1x1 red PNG, as the suite prescribes.
  const redPixelPng =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  server.registerTool(
    'test_image_content',
    { description: 'Conformance fixture: returns one image block', annotations: { readOnlyHint: true } },
    () => ({ content: [{ type: 'image', data: redPixelPng, mimeType: 'image/png' }] }),
  );
}
