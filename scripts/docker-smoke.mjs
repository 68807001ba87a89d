/**
 * Builds the server image (docker/Dockerfile) with a real container engine and uses it the way an
 * operator would: the default `all` role on its embedded PostgreSQL, then, given a PostgreSQL URL,
 * `migrate`, `api` and two `worker` containers against it, as docker/compose.yml runs them. Every call
 * goes through the project's own client (@mediagen/core over undici). Not part of `npm test`: the CI
 * machines run no container engine. Run it by hand after changing docker/ or the server's packaging:
 *
 *   npx tsc -b packages/core server                 # the client and the fixture file server
 *   node scripts/docker-smoke.mjs [--engine docker|podman] [--skip-build]
 *        [--base-image IMAGE]                       # instead of node:20.20-bookworm-slim
 *        [--database-url postgres://user:pw@127.0.0.1:5432/db]   # also run migrate + api + workers
 *
 * Linux only: the containers share the host's network (--network=host) so that they can fetch the
 * fixtures from a file server on 127.0.0.1 and the script can reach them. Ends with `N passed, M failed`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'test', 'fixtures');
const IMAGE = 'mediagen:smoke';

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function run(cmd, args, { check = true } = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (check && r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${(r.stderr || r.stdout).slice(-3000)}`);
  }
  return r;
}

function pickEngine() {
  const wanted = option('engine');
  for (const engine of wanted ? [wanted] : ['docker', 'podman']) {
    if (spawnSync(engine, ['version'], { stdio: 'ignore' }).status === 0) return engine;
  }
  throw new Error(
    `no container engine answers \`${wanted ?? 'docker'} version\`${wanted ? '' : ' or `podman version`'}`,
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const results = [];
async function check(name, fn) {
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`  FAIL  ${name}: ${err.message}`);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function waitReady(url, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s (${last})`);
}

/** The first bytes of a downloaded output. */
async function head(client, url, bytes = 16) {
  const { body, contentType } = await client.download(url);
  const chunks = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
  }
  return { contentType, size, start: Buffer.concat(chunks).subarray(0, bytes) };
}

/** What every server must do, through the client: generate, download, moderate, detect, swap. */
async function exercise(label, client, files) {
  await check(`${label}: list models`, async () => {
    const models = await client.listModels();
    assert(
      models.some((m) => m.slug === 'scene-painter'),
      'scene-painter missing from /models',
    );
  });
  await check(`${label}: text-to-image completes and downloads as PNG`, async () => {
    const g = await client.generate(
      'scene-painter',
      'text-to-image',
      { prompt: 'a red boat on a calm sea' },
      { timeoutMs: 120_000 },
    );
    assert(g.status === 'completed', `status ${g.status}`);
    const out = await head(client, g.output_url);
    assert(out.start.subarray(1, 4).toString() === 'PNG', `not a PNG (${out.contentType})`);
  });
  await check(`${label}: text-to-speech completes (espeak-ng in the image)`, async () => {
    const g = await client.generate(
      'formant-voice',
      'text-to-speech',
      { prompt: 'Hello from the container.' },
      { timeoutMs: 120_000 },
    );
    assert(g.status === 'completed', `status ${g.status}`);
    const out = await head(client, g.output_url);
    assert(out.size > 1000, `audio of ${out.size} bytes`);
  });
  await check(`${label}: text-to-video completes (ffmpeg in the image)`, async () => {
    const g = await client.generate(
      'scene-animator',
      'text-to-video',
      { prompt: 'a boat at sunrise' },
      { timeoutMs: 240_000 },
    );
    assert(g.status === 'completed', `status ${g.status}`);
    const out = await head(client, g.output_url);
    assert(out.start.subarray(4, 8).toString() === 'ftyp', `not an MP4 (${out.contentType})`);
  });
  await check(`${label}: moderation of a text and a photo`, async () => {
    const threat = await client.moderate({ text: 'I will find you and kill you', policy: 'violence' });
    assert(threat.nsfw === true, `threat scored ${threat.score}`);
    const photo = await client.moderate({ image_url: files.url('moderation/coffee.jpg') });
    assert(photo.nsfw === false && photo.media_type === 'image', `coffee scored ${photo.score}`);
  });
  await check(`${label}: detect three faces, swap one into a portrait`, async () => {
    const { faces } = await client.detectFaces(files.url('faces/group-three.jpg'));
    assert(faces.length === 3, `${faces.length} faces`);
    const g = await client.faceSwapAndWait(faces[0], files.url('faces/portrait-hopper.jpg'), {
      timeoutMs: 120_000,
    });
    assert(g.status === 'completed', `status ${g.status}`);
    const out = await head(client, g.output_url);
    assert(out.start[0] === 0xff && out.start[1] === 0xd8, `not a JPEG (${out.contentType})`);
  });
}

async function main() {
  const engine = pickEngine();
  const databaseUrl = option('database-url');
  console.log(`container engine: ${run(engine, ['--version']).stdout.trim()}`);
  const { createClient } = await import('../packages/core/dist/client/undici.js');
  const { startFileServer } = await import('../server/dist/testing/index.js');

  if (!process.argv.includes('--skip-build')) {
    const base = option('base-image');
    const t0 = Date.now();
    run(engine, [
      'build',
      ...(engine === 'podman' ? ['--format', 'docker'] : []), // keep HEALTHCHECK
      '--network=host',
      ...(base ? ['--build-arg', `NODE_IMAGE=${base}`] : []),
      '-f',
      'docker/Dockerfile',
      '-t',
      IMAGE,
      root,
    ]);
    console.log(`built ${IMAGE} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }

  const files = await startFileServer(fixtures);
  const containers = [];
  const dirs = [];
  const start = (name, role, env, dataDir) => {
    run(engine, [
      'run',
      '-d',
      '--name',
      name,
      '--network=host',
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      '-v',
      `${dataDir}:/data`,
      IMAGE,
      role,
    ]);
    containers.push(name);
  };
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagen-smoke-'));
    chmodSync(dir, 0o777); // the image runs as uid 10001
    dirs.push(dir);
    return dir;
  };
  const stamp = `${process.pid}`;
  try {
    // 1. The default role on its embedded PostgreSQL, as `docker run mediagen` does.
    const port = await freePort();
    const data = dataDir();
    const all = `mediagen-smoke-all-${stamp}`;
    start(all, 'all', { PORT: String(port), MEDIAGEN_ALLOW_PRIVATE_URLS: 'true' }, data);
    await check('all: /readyz answers 200 (embedded PostgreSQL, models loaded)', () =>
      waitReady(`http://127.0.0.1:${port}/readyz`),
    );
    const apiKey = readFileSync(join(data, 'dev-key'), 'utf8').trim();
    const client = createClient({ apiKey, baseUrl: `http://127.0.0.1:${port}/api/v3`, useEnv: false });
    await exercise('all', client, files);
    await check('all: the image healthcheck passes', async () => {
      run(engine, ['exec', all, 'node', '/app/docker/healthcheck.mjs']);
    });
    await check('all: SIGTERM stops it cleanly (exit 0)', async () => {
      run(engine, ['stop', '-t', '60', all]);
      const code = run(engine, ['inspect', '-f', '{{.State.ExitCode}}', all]).stdout.trim();
      assert(code === '0', `exit code ${code}`);
    });

    // 2. The roles of docker/compose.yml against an outside PostgreSQL.
    if (databaseUrl) {
      const apiPort = await freePort();
      const shared = dataDir();
      const env = {
        DATABASE_URL: databaseUrl,
        PORT: String(apiPort),
        MEDIAGEN_PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
        MEDIAGEN_SIGNING_SECRET: 'smoke-'.padEnd(64, '0'),
        MEDIAGEN_ADMIN_TOKEN: `smoke-admin-${stamp}-token`,
        MEDIAGEN_ALLOW_PRIVATE_URLS: 'true',
        MEDIAGEN_DEV_ACCOUNT: 'false',
      };
      await check('migrate: applies the migrations and exits 0', async () => {
        const args = [
          'run',
          '--rm',
          '--network=host',
          ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
        ];
        run(engine, [...args, IMAGE, 'migrate']);
      });
      start(`mediagen-smoke-api-${stamp}`, 'api', env, shared);
      start(`mediagen-smoke-worker1-${stamp}`, 'worker', env, shared);
      start(`mediagen-smoke-worker2-${stamp}`, 'worker', env, shared);
      await check('api: /readyz answers 200', () => waitReady(`http://127.0.0.1:${apiPort}/readyz`));
      const adminCall = async (path, body) => {
        const res = await fetch(`http://127.0.0.1:${apiPort}/admin/v1${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.MEDIAGEN_ADMIN_TOKEN}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
        const json = await res.json();
        assert(json.success, `admin ${path}: ${JSON.stringify(json.error)}`);
        return json.data;
      };
      const account = await adminCall('/accounts', { balance_usd: 5 });
      const key = await adminCall(`/accounts/${account.account_id}/keys`, {});
      const split = createClient({
        apiKey: key.api_key,
        baseUrl: `http://127.0.0.1:${apiPort}/api/v3`,
        useEnv: false,
      });
      await exercise('api + 2 workers', split, files);
    }
  } finally {
    for (const name of containers) run(engine, ['rm', '-f', name], { check: false });
    await files.close();
    for (const dir of dirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        console.log(`  (left ${dir}: files written by the container's user)`);
      }
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err.message);
  console.log(
    `${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`,
  );
  process.exit(1);
});
