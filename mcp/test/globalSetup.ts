/**
 * One REAL mediagen server (embedded PostgreSQL + API + worker, from @mediagen/server/testing) and one
 * static file server for the fixtures, shared by every mcp test file: starting PostgreSQL once keeps the
 * mcp tests well under two minutes on a loaded 2-core machine.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startFileServer, startTestServer } from '@mediagen/server/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    /** A key of an account with no credit (for PAYMENT_REQUIRED). */
    brokeApiKey: string;
    /** Base URL of the fixture file server (test/fixtures/faces), with a trailing slash. */
    filesUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const srv = await startTestServer({});
  const files = await startFileServer(fileURLToPath(new URL('../../test/fixtures/faces', import.meta.url)));
  try {
    const broke = await srv.createAccount(0);
    project.provide('baseUrl', srv.baseUrl);
    project.provide('apiKey', srv.apiKey);
    project.provide('brokeApiKey', broke.apiKey);
    project.provide('filesUrl', files.url('x').replace(/x$/, ''));
  } catch (error) {
    await files.close();
    await srv.stop();
    throw error;
  }
  return async () => {
    await files.close();
    await srv.stop();
  };
}
