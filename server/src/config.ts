/**
 * The server's configuration, read from the environment once and validated with zod. Every problem is
 * reported at start with the variable's name and what it must be, then the process exits.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root (server/dist/config.js -> ../..). Default home of .data/ and catalog.json. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVER_ROOT = join(REPO_ROOT, 'server');

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** `20/s`, `1200/m`, `20/s,burst=40`, or `off`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}
const rateLimit = z.string().transform((value, ctx): RateLimit | null => {
  const v = value.trim().toLowerCase();
  if (v === 'off' || v === '0' || v === 'none') return null;
  const m = /^(\d+(?:\.\d+)?)\s*\/\s*(s|sec|second|m|min|minute|h|hour)(?:\s*,\s*burst\s*=\s*(\d+))?$/.exec(
    v,
  );
  if (!m) {
    ctx.addIssue({
      code: 'custom',
      message: 'must look like "20/s", "600/m" or "20/s,burst=40" (requests per key), or "off"',
    });
    return z.NEVER;
  }
  const unit = m[2]!.startsWith('s') ? 1 : m[2]!.startsWith('m') ? 60 : 3600;
  const perSecond = Number(m[1]) / unit;
  const burst = m[3] ? Number(m[3]) : Math.max(1, Math.ceil(perSecond * 2));
  if (perSecond <= 0 || burst < 1) {
    ctx.addIssue({ code: 'custom', message: 'rate and burst must be positive' });
    return z.NEVER;
  }
  return { perSecond, burst };
});

const Env = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int({ error: 'must be an integer' })
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' })
    .default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// connection URL' })
    .optional(),
  MEDIAGEN_PUBLIC_URL: z
    .url({ error: 'must be an absolute http(s) URL such as https://media.example.com' })
    .regex(/^https?:\/\//, { error: 'must start with http:// or https://' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  MEDIAGEN_DATA_DIR: z.string().min(1).optional(),
  MEDIAGEN_STORAGE_DIR: z.string().min(1).optional(),
  MEDIAGEN_SIGNING_SECRET: z
    .string()
    .min(32, { error: 'must be at least 32 characters (use `openssl rand -hex 32`)' })
    .optional(),
  MEDIAGEN_ADMIN_TOKEN: z
    .string()
    .min(16, { error: 'must be at least 16 characters (use `openssl rand -hex 24`)' })
    .optional(),
  MEDIAGEN_WORKER_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(64, { error: 'must be at most 64' })
    .default(2),
  MEDIAGEN_OUTPUT_RETENTION_GRACE_HOURS: z.coerce
    .number({ error: 'must be a number of hours' })
    .min(0, { error: 'must be at least 0' })
    .max(8760, { error: 'must be at most 8760 (a year)' })
    .default(24),
  MEDIAGEN_RATE_LIMIT: rateLimit.default(() => ({ perSecond: 20, burst: 40 })),
  MEDIAGEN_ALLOW_PRIVATE_URLS: booleanString.default(false),
  MEDIAGEN_CATALOG: z.string().min(1).optional(),
  MEDIAGEN_DEV_ACCOUNT: booleanString.optional(),
  MEDIAGEN_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  MEDIAGEN_EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  dataDir: string;
  storageDir: string;
  signingSecret: string | undefined;
  adminToken: string | undefined;
  workerConcurrency: number;
  /**
   * Output files (and face crops) are deleted this long after their signed URLs expired (7 days after
   * the generation): a grace for clocks and for downloads started just before the expiry.
   */
  outputRetentionGraceHours: number;
  rateLimit: RateLimit | null;
  allowPrivateUrls: boolean;
  catalogPath: string;
  /** Create and print a development account at start (default: when the database is embedded). */
  devAccount: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Port of the embedded PostgreSQL; 0 picks a stable free one per data directory. */
  embeddedPgPort: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.MEDIAGEN_DATA_DIR ?? join(REPO_ROOT, '.data'));
  const catalogPath = resolve(e.MEDIAGEN_CATALOG ?? join(SERVER_ROOT, 'catalog.json'));
  if (!existsSync(catalogPath)) {
    throw new ConfigError(`invalid configuration:\n  MEDIAGEN_CATALOG: no file at ${catalogPath}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.MEDIAGEN_PUBLIC_URL,
    dataDir,
    storageDir: resolve(e.MEDIAGEN_STORAGE_DIR ?? join(dataDir, 'storage')),
    signingSecret: e.MEDIAGEN_SIGNING_SECRET,
    adminToken: e.MEDIAGEN_ADMIN_TOKEN,
    workerConcurrency: e.MEDIAGEN_WORKER_CONCURRENCY,
    outputRetentionGraceHours: e.MEDIAGEN_OUTPUT_RETENTION_GRACE_HOURS,
    rateLimit: e.MEDIAGEN_RATE_LIMIT,
    allowPrivateUrls: e.MEDIAGEN_ALLOW_PRIVATE_URLS,
    catalogPath,
    devAccount: e.MEDIAGEN_DEV_ACCOUNT ?? e.DATABASE_URL === undefined,
    logLevel: e.MEDIAGEN_LOG_LEVEL,
    embeddedPgPort: e.MEDIAGEN_EMBEDDED_PG_PORT,
  };
}

/** Reads a small text file if present (used for the secrets kept under .data/). */
export function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}
