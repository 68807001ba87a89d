/**
 * Starts ONE embedded PostgreSQL for every server test file; each file creates its own database
 * through startTestServer({databaseUrl}). (db/startup.test.ts covers the relocation out of a directory
 * the postgres user cannot enter.)
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../dist/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-server-tests-'));
  await chmod(dir, 0o755); // reachable by the postgres user when run as root: no relocation
  const pg = await startEmbeddedPostgres({ dataDir: dir, log: () => undefined });
  project.provide('pgUrl', pg.url);
  return async () => {
    await pg.stop();
    if (!pg.pgData.startsWith(dir)) await rm(pg.pgData, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  };
}
