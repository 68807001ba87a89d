// Prepares n8n's "MediaGen API" credential for docker/n8n/entrypoint.sh. Plain Node (n8n's image), no
// dependencies.
//
//   node mediagen-credential.mjs <state-dir>             prints the path of a credentials file to import,
//                                                          or nothing when n8n already has this credential
//   node mediagen-credential.mjs <state-dir> --imported  records that the import succeeded
//
// The API key is MEDIAGEN_N8N_API_KEY when set. Otherwise one is created once through the admin API
// (POST /admin/v1/accounts, POST /admin/v1/accounts/{id}/keys, Bearer MEDIAGEN_ADMIN_TOKEN) for a new
// account funded with MEDIAGEN_N8N_BALANCE_USD, and kept in <state-dir>/api-key (mode 0600, inside the
// n8n-data volume) so a restart does not create another account. Without either, n8n starts without
// the credential and says how to add it. Messages go to stderr; stdout carries only the path.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Must match the credential's `name` in nodes/ (scripts/suites/docker-checks.mjs checks it). */
export const CREDENTIAL_TYPE = 'mediaGenApi';
export const CREDENTIAL_ID = 'mediagenCompose1';
export const CREDENTIAL_NAME = 'MediaGen API (compose)';

const log = (msg) => process.stderr.write(`[mediagen] ${msg}\n`);

export function apiOrigin(apiUrl) {
  return new URL(apiUrl).origin;
}

async function waitUp(origin, { timeoutMs = 180_000, fetchImpl = fetch } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetchImpl(`${origin}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${origin}/healthz did not answer 2xx in time`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function admin(origin, token, path, body, fetchImpl) {
  const res = await fetchImpl(`${origin}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || json.success !== true) {
    throw new Error(`POST /admin/v1${path} answered ${res.status}: ${JSON.stringify(json.error ?? json)}`);
  }
  return json.data;
}

/** Creates a funded account and a key for it through the admin API; returns the key. */
export async function createApiKey({ apiUrl, adminToken, balanceUsd, fetchImpl = fetch, readyTimeoutMs }) {
  const origin = apiOrigin(apiUrl);
  // /healthz, not /readyz: the admin API needs only the database, not the warmed-up models.
  await waitUp(origin, { timeoutMs: readyTimeoutMs, fetchImpl });
  const account = await admin(origin, adminToken, '/accounts', { balance_usd: balanceUsd }, fetchImpl);
  const key = await admin(origin, adminToken, `/accounts/${account.account_id}/keys`, {}, fetchImpl);
  log(`created account ${account.account_id} with $${balanceUsd} for n8n`);
  return key.api_key;
}

/** The file n8n's `import:credentials` reads: an array of credentials, data in plain form (n8n encrypts it). */
export function credentialFile(apiKey, baseUrl) {
  return [
    {
      id: CREDENTIAL_ID,
      name: CREDENTIAL_NAME,
      type: CREDENTIAL_TYPE,
      data: { apiKey, baseUrl },
    },
  ];
}

const fingerprint = (apiKey, baseUrl) =>
  createHash('sha256').update(`${CREDENTIAL_TYPE}\n${apiKey}\n${baseUrl}`).digest('hex');

export async function prepare(stateDir, env = process.env, fetchImpl = fetch) {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const baseUrl = env.MEDIAGEN_API_URL || 'http://api:8080/api/v3';
  const keyPath = join(stateDir, 'api-key');
  let apiKey = env.MEDIAGEN_N8N_API_KEY || (existsSync(keyPath) ? readFileSync(keyPath, 'utf8').trim() : '');
  if (!apiKey) {
    if (!env.MEDIAGEN_ADMIN_TOKEN) {
      log(
        'no MediaGen credential created: set MEDIAGEN_N8N_API_KEY (or MEDIAGEN_ADMIN_TOKEN to create one) ' +
          'in docker/.env, or add the credential in n8n by hand',
      );
      return undefined;
    }
    const balanceUsd = Number(env.MEDIAGEN_N8N_BALANCE_USD || '10');
    if (!Number.isFinite(balanceUsd) || balanceUsd < 0) {
      throw new Error(
        `MEDIAGEN_N8N_BALANCE_USD must be a non-negative number, got "${env.MEDIAGEN_N8N_BALANCE_USD}"`,
      );
    }
    apiKey = await createApiKey({
      apiUrl: baseUrl,
      adminToken: env.MEDIAGEN_ADMIN_TOKEN,
      balanceUsd,
      fetchImpl,
    });
    writeFileSync(keyPath, `${apiKey}\n`, { mode: 0o600 });
  }
  const marker = join(stateDir, 'imported');
  const fp = fingerprint(apiKey, baseUrl);
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === fp) return undefined;
  const file = join(stateDir, 'credential.json');
  writeFileSync(file, JSON.stringify(credentialFile(apiKey, baseUrl), null, 2), { mode: 0o600 });
  writeFileSync(join(stateDir, 'pending'), fp, { mode: 0o600 });
  log(`importing credential "${CREDENTIAL_NAME}" -> ${baseUrl}`);
  return file;
}

export function markImported(stateDir) {
  const pending = join(stateDir, 'pending');
  if (existsSync(pending))
    writeFileSync(join(stateDir, 'imported'), readFileSync(pending, 'utf8'), { mode: 0o600 });
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const [stateDir, flag] = process.argv.slice(2);
  if (!stateDir) {
    log('usage: mediagen-credential.mjs <state-dir> [--imported]');
    process.exit(2);
  }
  try {
    if (flag === '--imported') markImported(stateDir);
    else {
      const file = await prepare(stateDir);
      if (file) process.stdout.write(`${file}\n`);
    }
  } catch (err) {
    // n8n still starts; the operator sees why the credential is missing.
    log(`credential not prepared: ${err?.message ?? err}`);
  }
}
