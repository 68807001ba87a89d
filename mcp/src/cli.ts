#!/usr/bin/env node
/**
 * mediagen-mcp: the mediagen MCP server.
 *   mediagen-mcp                 stdio (what Claude Desktop, Claude Code and Cursor start)
 *   mediagen-mcp --http [port]   Streamable HTTP at http://127.0.0.1:<port>/mcp (default 3000)
 *     --host <addr>              interface to bind (default 127.0.0.1)
 *     --allowed-hosts a,b        Host header values accepted when bound elsewhere (behind a proxy)
 * Environment: MEDIAGEN_API_KEY, MEDIAGEN_BASE_URL (required), MEDIAGEN_MCP_MAX_WAIT_SECONDS (default 45),
 * MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS (default 55), MEDIAGEN_MCP_PREVIEW=off (no preview thumbnails).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Model } from '@mediagen/core';
import { createClient } from '@mediagen/core/undici';
import { configFromEnv } from './config.js';
import { startHttpServer } from './http.js';
import { createServer, SERVER_VERSION } from './server.js';

const USAGE = `usage: mediagen-mcp [--http [port]] [--host <addr>] [--allowed-hosts <h1,h2>]
Environment: MEDIAGEN_API_KEY, MEDIAGEN_BASE_URL (e.g. https://host/api/v3),
MEDIAGEN_MCP_MAX_WAIT_SECONDS (default 45), MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS (default 55),
MEDIAGEN_MCP_PREVIEW=off`;

function log(message: string): void {
  // stdout belongs to the MCP protocol in stdio mode: everything else goes to stderr.
  process.stderr.write(`mediagen-mcp: ${message}\n`);
}

interface Args {
  http?: number;
  host?: string;
  allowedHosts?: string[];
  conformanceFixtures?: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg === '--version') {
      process.stdout.write(`${SERVER_VERSION}\n`);
      process.exit(0);
    } else if (arg === '--http') {
      const next = argv[i + 1];
      if (next !== undefined && /^\d+$/.test(next)) {
        args.http = Number(next);
        i++;
      } else {
        args.http = 3000;
      }
    } else if (arg === '--host') {
      args.host = argv[++i];
    } else if (arg === '--conformance-fixtures') {
      // Test only: the fixture tools the official conformance suite calls (scripts/suites/mcp-conformance.mjs).
      args.conformanceFixtures = true;
    } else if (arg === '--allowed-hosts') {
      args.allowedHosts = (argv[++i] ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean);
    } else {
      log(`unknown argument "${arg}"\n${USAGE}`);
      process.exit(2);
    }
  }
  return args;
}

/** The catalog for the prices in the charged tools' descriptions; best effort, a few seconds at most. */
async function loadCatalog(): Promise<Model[]> {
  if (!process.env.MEDIAGEN_BASE_URL || !process.env.MEDIAGEN_API_KEY) return [];
  try {
    const client = createClient({ retry: { maxRetries: 0 } });
    return await client.listModels({ signal: AbortSignal.timeout(5000) });
  } catch (error) {
    log(
      `could not load the catalog for price notes (${error instanceof Error ? error.message : String(error)}); continuing`,
    );
    return [];
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  configFromEnv(); // fail fast on a bad MEDIAGEN_MCP_MAX_WAIT_SECONDS or MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS
  if (!process.env.MEDIAGEN_BASE_URL)
    log('MEDIAGEN_BASE_URL is not set: every tool call will fail until it is');
  const catalog = await loadCatalog();

  if (args.http !== undefined) {
    const running = await startHttpServer({
      port: args.http,
      ...(args.host ? { host: args.host } : {}),
      ...(args.allowedHosts ? { allowedHosts: args.allowedHosts } : {}),
      server: { catalog, ...(args.conformanceFixtures ? { conformanceFixtures: true } : {}) },
    });
    log(`Streamable HTTP on ${running.url}`);
    const stop = () => {
      void running.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return;
  }

  const server = createServer({ catalog });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
