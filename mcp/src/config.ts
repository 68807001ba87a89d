/**
 * Configuration from the environment. Every value can also be given to createServer() directly.
 *
 * - MEDIAGEN_API_KEY, MEDIAGEN_BASE_URL: read by @mediagen/core's client (base URL includes /api/v3).
 * - MEDIAGEN_MCP_MAX_WAIT_SECONDS: how long generate / face_swap / get_generation wait for a result
 *   before handing over to get_generation. Default 45: under the ~60 s after which Claude Desktop and
 *   other clients cancel a tool call.
 * - MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS: the longest one tool call may take in all (every request to the
 *   API, retries and the wait included); past it the call answers a timeout error instead of letting the
 *   client cancel it silently. Default the larger of 55 and the maximum wait + 10.
 * - MEDIAGEN_MCP_PREVIEW: "off" to never attach a preview thumbnail to image results.
 */
export const DEFAULT_MAX_WAIT_SECONDS = 45;
/** No client waits longer than this for one tool call; a larger setting is clamped. */
export const MAX_MAX_WAIT_SECONDS = 600;

/** The default limit of one tool call: under the ~60 s after which clients cancel a call. */
export const DEFAULT_CALL_TIMEOUT_SECONDS = 55;

export interface McpConfig {
  maxWaitSeconds: number;
  /** Set explicitly (MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS); otherwise callTimeoutSecondsFor() decides. */
  callTimeoutSeconds: number | undefined;
  previews: boolean;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): McpConfig {
  return {
    maxWaitSeconds: parseMaxWait(env.MEDIAGEN_MCP_MAX_WAIT_SECONDS),
    callTimeoutSeconds: parseCallTimeout(env.MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS),
    previews: !/^(0|off|false|no)$/i.test(env.MEDIAGEN_MCP_PREVIEW?.trim() ?? ''),
  };
}

/** The limit of one tool call: the setting, else the larger of 55 s and the maximum wait + 10 s. */
export function callTimeoutSecondsFor(maxWaitSeconds: number, setting: number | undefined): number {
  return setting ?? Math.max(DEFAULT_CALL_TIMEOUT_SECONDS, maxWaitSeconds + 10);
}

export function parseCallTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1 || n > MAX_MAX_WAIT_SECONDS + 60) {
    throw new TypeError(
      `MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS must be a number of seconds from 1 to ${MAX_MAX_WAIT_SECONDS + 60}, got "${value}"`,
    );
  }
  return n;
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
