/**
 * The operator CLI over the same functions as the admin API (`npm run admin -- <command>`):
 *   accounts create [--balance <usd>]        create an account (and print it)
 *   accounts show <account_id>               balance, moderation calls, keys, ledger
 *   keys create <account_id> [--expires <ISO date-time>]   issue an API key (printed once)
 *   keys disable <key_id>
 *   credits add <account_id> <usd>
 * Uses DATABASE_URL, or the embedded PostgreSQL of the data directory (the running server's, or
 * started for the command when no server runs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addCredits, createAccount, getAccount } from '../accounts/accounts.js';
import { createApiKey, disableApiKey } from '../accounts/apiKeys.js';
import { ConfigError, loadConfig } from '../config.js';
import { EMBEDDED_DATABASE_NAME, ensureDatabase, openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { createPool, type Pool } from '../db/pool.js';
import { createLogger } from '../log.js';

const USAGE = `usage: npm run admin -- <command>
  accounts create [--balance <usd>]
  accounts show <account_id>
  keys create <account_id> [--expires <ISO 8601 date-time>]
  keys disable <key_id>
  credits add <account_id> <usd>`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return v;
}

function usd(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${what} must be a number of US dollars, got "${value ?? ''}"`);
  return n;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running server's embedded database, if one runs on this data dir. */
function runningEmbeddedUrl(dataDir: string): string | undefined {
  const owner = join(dataDir, 'postgres.owner');
  if (!existsSync(owner) || !alive(Number(readFileSync(owner, 'utf8').trim()))) return undefined;
  const port = readFileSync(join(dataDir, 'postgres.port'), 'utf8').trim();
  const password = readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export async function runAdmin(pool: Pool, argv: string[]): Promise<unknown> {
  const args = [...argv];
  const [group, action] = [args.shift(), args.shift()];
  switch (`${group} ${action}`) {
    case 'accounts create': {
      const balance = usd(option(args, '--balance') ?? '0', '--balance');
      const a = await createAccount(pool, balance);
      return { account_id: a.accountId, balance_usd: a.balanceUsd };
    }
    case 'accounts show': {
      const a = await getAccount(pool, args[0] ?? '');
      if (!a) throw new UsageError(`account "${args[0] ?? ''}" not found`);
      return a;
    }
    case 'keys create': {
      const expires = option(args, '--expires');
      const date = expires ? new Date(expires) : null;
      if (date && Number.isNaN(date.getTime()))
        throw new UsageError(`--expires must be an ISO 8601 date-time`);
      const k = await createApiKey(pool, args[0] ?? '', date);
      return { key_id: k.keyId, api_key: k.apiKey, expires_at: date?.toISOString() ?? null };
    }
    case 'keys disable': {
      if (!(await disableApiKey(pool, args[0] ?? '')))
        throw new UsageError(`key "${args[0] ?? ''}" not found`);
      return { key_id: args[0], disabled: true };
    }
    case 'credits add': {
      const balance = await addCredits(pool, args[0] ?? '', usd(args[1], 'the amount'));
      if (balance === null) throw new UsageError(`account "${args[0] ?? ''}" not found`);
      return { account_id: args[0], balance_usd: balance };
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const log = createLogger('warn');
  let url = config.databaseUrl;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const running = runningEmbeddedUrl(config.dataDir);
    if (running) url = await ensureDatabase(running, EMBEDDED_DATABASE_NAME);
    else {
      const db = await openDatabase(config, log);
      url = db.url;
      stop = () => db.embedded!.stop();
    }
  }
  const pool = createPool(url, 2);
  try {
    await migrate(pool);
    const result = await runAdmin(pool, argv);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await pool.end();
    await stop?.();
  }
}

main().catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ConfigError) console.error(err.message);
  else if ((err as { code?: string }).code === '22P02') console.error('invalid id: ids are UUIDs');
  else if ((err as { code?: string }).code === '23503') console.error('account not found');
  else console.error(`admin: ${(err as Error).message}`);
  process.exit(1);
});
