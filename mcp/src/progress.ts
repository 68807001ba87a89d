import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * notifications/progress for one tool call, sent only when the client asked for them by giving a
 * progressToken (MCP "Progress" utility). `progress` must increase with every notification; a failure to
 * send one (the client went away) never fails the call.
 */
export class ProgressReporter {
  private progress = 0;
  private readonly token: string | number | undefined;

  constructor(private readonly extra: ToolExtra) {
    this.token = extra._meta?.progressToken;
  }

  get enabled(): boolean {
    return this.token !== undefined;
  }

  /** Sends one notification; `total` only when the end is known. */
  async report(message: string, options: { progress?: number; total?: number } = {}): Promise<void> {
    if (this.token === undefined || this.extra.signal.aborted) return;
    this.progress = Math.max(this.progress + 1, options.progress ?? 0);
    try {
      await this.extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: this.token,
          progress: this.progress,
          ...(options.total !== undefined ? { total: Math.max(options.total, this.progress) } : {}),
          message,
        },
      });
    } catch {
      // The client went away: nothing to tell.
    }
  }
}
