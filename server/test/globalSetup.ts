/**
 * Starts ONE embedded PostgreSQL (in a 0700 temp dir, which the postgres user cannot enter when the
 * tests run as root: this exercises the relocation in db/embedded.ts) for every server test file;
 * each file creates its own database through startTestServer({databaseUrl}).
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
  const pg = await startEmbeddedPostgres({ dataDir: dir, log: () => undefined });
  project.provide('pgUrl', pg.url);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
