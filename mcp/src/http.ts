import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { NextFunction, Request, Response } from 'express';
import { createServer, type CreateServerOptions } from './server.js';

export interface HttpServerOptions {
  /** 0 picks a free port. Default 3000. */
  port?: number;
  /** Default 127.0.0.1, with DNS rebinding protection (Host header must be localhost). */
  host?: string;
  /** Host names accepted in the Host header when binding to another interface (e.g. behind a proxy). */
  allowedHosts?: string[];
  /** Sessions idle longer than this are closed. Default 1 hour. */
  sessionIdleMs?: number;
  server?: CreateServerOptions;
}

/** Host names of this machine as the Host and Origin headers spell them. */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

function originAllowed(origin: string, hosts: readonly string[]): boolean {
  try {
    const { hostname } = new URL(origin);
    return hosts.includes(hostname) || hosts.includes(hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false; // "null" (a sandboxed page, a file) or garbage
  }
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp */
  url: string;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/**
 * Streamable HTTP hosting with stateful sessions (the SDK's StreamableHTTPServerTransport, one McpServer
 * per session), on the SDK's Express app, which validates the Host header on localhost against DNS
 * rebinding. When hosted, each request may carry its own API key in `Authorization: Bearer <key>`;
 * without one the server's MEDIAGEN_API_KEY is used.
 */
export async function startHttpServer(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const app = createMcpExpressApp({
    host,
    ...(options.allowedHosts?.length ? { allowedHosts: options.allowedHosts } : {}),
  });
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 60 * 60_000;

  /** A JSON-RPC error answer with no id (-32000: server error; -32700: parse error). */
  const jsonRpcError = (res: Response, status: number, message: string, code = -32000) => {
    res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
  };

  // The transport spec asks servers to validate Origin too: a web page the user visits may post to a
  // local MCP server, whose key spends money. Non-browser clients send no Origin; a browser's must name
  // one of the hosts the Host header may name.
  const originHosts = options.allowedHosts?.length
    ? options.allowedHosts
    : LOCAL_HOSTS.includes(host)
      ? LOCAL_HOSTS
      : undefined;
  if (originHosts) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      const origin = req.headers.origin;
      if (origin === undefined || originAllowed(origin, originHosts)) {
        next();
        return;
      }
      jsonRpcError(res, 403, `Forbidden: requests from the web origin ${origin} are not accepted`);
    });
  }

  const sessionOf = (req: Request): Session | undefined => {
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (session) session.lastSeen = Date.now();
    return session;
  };

  app.post('/mcp', async (req: Request, res: Response) => {
    try {
      const existing = sessionOf(req);
      if (existing) {
        await existing.transport.handleRequest(req, res, req.body);
        return;
      }
      if (req.headers['mcp-session-id'] !== undefined) {
        jsonRpcError(res, 404, 'Unknown or expired session: initialize a new one');
        return;
      }
      if (!isInitializeRequest(req.body)) {
        jsonRpcError(res, 400, 'Bad request: no session id, and the request is not initialize');
        return;
      }
      const server = createServer({ ...options.server, keyFromAuthorizationHeader: true });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, lastSeen: Date.now() });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      process.stderr.write(`mediagen-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) jsonRpcError(res, 500, 'Internal server error');
    }
  });

  const bySession = async (req: Request, res: Response) => {
    const session = sessionOf(req);
    if (!session) {
      jsonRpcError(
        res,
        req.headers['mcp-session-id'] === undefined ? 400 : 404,
        'Unknown or missing session id',
      );
      return;
    }
    await session.transport.handleRequest(req, res);
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ ok: true, sessions: sessions.size });
  });

  // The SDK's app parses JSON bodies (100 kB at most) before our routes: a body that is not JSON or is
  // too large must get a JSON-RPC error, not Express's default HTML page with a stack trace and paths.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { type, limit, status } = (error ?? {}) as { type?: string; limit?: number; status?: number };
    if (type === 'entity.parse.failed') {
      jsonRpcError(res, 400, 'Parse error: the body is not valid JSON', -32700);
    } else if (type === 'entity.too.large') {
      jsonRpcError(res, 413, `Request body too large: the limit is ${limit ?? 102400} bytes`);
    } else if (typeof status === 'number' && status >= 400 && status < 500) {
      jsonRpcError(res, status, 'Bad request: the body could not be read');
    } else {
      jsonRpcError(res, 500, 'Internal server error');
    }
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen > idleMs) {
          sessions.delete(id);
          void session.transport.close();
        }
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const httpServer: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 3000, host, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = httpServer.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}/mcp`,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
