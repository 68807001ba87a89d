/**
 * Configuration from the environment. Every value can also be given to createServer() directly.
 *
 * - MEDIAGEN_API_KEY, MEDIAGEN_BASE_URL: read by @mediagen/core's client (base URL includes /api/v3).
 * - MEDIAGEN_MCP_MAX_WAIT_SECONDS: how long generate / face_swap / get_generation wait for a result
 *   before handing over to get_generation. Default 45: under the ~60 s after which Claude Desktop and
 *   other clients cancel a tool call.
 * - MEDIAGEN_MCP_PREVIEW: "off" to never attach a preview thumbnail to image results.
 */
export const DEFAULT_MAX_WAIT_SECONDS = 45;
/** No client waits longer than this for one tool call; a larger setting is clamped. */
export const MAX_MAX_WAIT_SECONDS = 600;

export interface McpConfig {
  maxWaitSeconds: number;
  previews: boolean;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): McpConfig {
  return {
    maxWaitSeconds: parseMaxWait(env.MEDIAGEN_MCP_MAX_WAIT_SECONDS),
    previews: !/^(0|off|false|no)$/i.test(env.MEDIAGEN_MCP_PREVIEW?.trim() ?? ''),
  };
}

export function parseMaxWait(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAX_WAIT_SECONDS;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    throw new TypeError(
      `MEDIAGEN_MCP_MAX_WAIT_SECONDS must be a number of seconds from 0 to ${MAX_MAX_WAIT_SECONDS}, got "${value}"`,
    );
  }
  return Math.min(n, MAX_MAX_WAIT_SECONDS);
}
