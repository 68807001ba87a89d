/**
 * The n8n community node package, checked as a user would meet it:
 *   1. lint with n8n's own rules (@n8n/node-cli's eslint config, in nodes/eslint.config.mjs);
 *   2. `pnpm pack` the package and check the tarball: dist/ only, no runtime dependencies;
 *   3. n8n's community package scan rules on the tarball and on the source;
 *   4. a REAL n8n (2.41, on the Node 24 it needs, installed once into a cache folder outside the
 *      workspace) loads the packed package from $N8N_USER_FOLDER/.n8n/nodes/node_modules, imports a
 *      credential and the workflows in test/n8n/workflows, and runs each with
 *      `n8n execute --id=<id> --rawOutput` against the real mediagen server; the output JSON and the
 *      binary files n8n stored are checked.
 * Exports run({root, pnpm, sh}) -> {passed, failed} for scripts/run.mjs; runnable alone:
 *   node scripts/suites/n8n-e2e.mjs
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const log = (...args) => console.log('[n8n-e2e]', ...args);

function capture(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr });
    });
    child.on('error', (err) => resolve({ code: 1, stdout, stderr: stderr + String(err) }));
  });
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** The JSON document n8n prints with --rawOutput (other log lines may come before it). */
function parseRawOutput(stdout) {
  const start = stdout.indexOf('{\n');
  const end = stdout.lastIndexOf('\n}');
  assert(start >= 0 && end > start, `no JSON in n8n's output:\n${stdout.slice(-2000)}`);
  return JSON.parse(stdout.slice(start, end + 2));
}

function nodeRun(run, name) {
  const task = run.data?.resultData?.runData?.[name]?.[0];
  assert(
    task,
    `node "${name}" did not run; executed: ${Object.keys(run.data?.resultData?.runData ?? {}).join(', ')}`,
  );
  assert(!task.error, `node "${name}" failed: ${task.error?.message}`);
  return task.data.main;
}

/** The bytes n8n stored for a binary property (inline base64, or its filesystem binary-data store). */
function binaryFile(userFolder, binary) {
  if (binary.id) {
    const [mode, ...rest] = String(binary.id).split(':');
    const rel = rest.join(':');
    const candidates = [
      join(userFolder, '.n8n', 'storage', rel),
      join(userFolder, '.n8n', 'binaryData', rel),
    ];
    const found = candidates.find((p) => existsSync(p));
    assert(found, `binary ${binary.id} (${mode}) not found under ${candidates.join(' or ')}`);
    return readFileSync(found);
  }
  return Buffer.from(binary.data, 'base64');
}

const CHECKS = {
  /** The docs' first workflow (docs/n8n.md): the prompt passes moderation and the image is generated. */
  'n8n-first-workflow.json': (run, { userFolder }) => {
    const [passed, refused] = nodeRun(run, 'Check the Prompt');
    assert(passed?.length === 1 && (refused?.length ?? 0) === 0, 'the prompt was not routed to Passed');
    assert(!run.data.resultData.runData['Prompt Refused'], 'Prompt Refused ran');
    const [items] = nodeRun(run, 'Generate the Image');
    const { json, binary } = items[0];
    assert(json.status === 'completed' && /^http/.test(json.output_url), `generation ${json.status}`);
    assert(binary?.data?.mimeType === 'image/png', `mimeType ${binary?.data?.mimeType}`);
    const bytes = binaryFile(userFolder, binary.data);
    assert(bytes.subarray(1, 4).toString() === 'PNG', 'not a PNG');
    return `${binary.data.fileName} ${bytes.length} bytes`;
  },
  /** Generate Image: completed, file in binary `data`, mime and name from the server, real PNG bytes. */
  'generate-image.workflow.json': (run, { userFolder }) => {
    const [items] = nodeRun(run, 'Generate Image');
    assert(items.length === 1, `expected 1 item, got ${items.length}`);
    const { json, binary } = items[0];
    assert(json.status === 'completed', `status ${json.status}`);
    assert(/^http:\/\/127\.0\.0\.1:\d+\//.test(json.output_url), `output_url ${json.output_url}`);
    assert(binary?.data, 'no binary "data"');
    assert(binary.data.mimeType === 'image/png', `mimeType ${binary.data.mimeType}`);
    assert(binary.data.fileName && binary.data.fileName.endsWith('.png'), `fileName ${binary.data.fileName}`);
    const bytes = binaryFile(userFolder, binary.data);
    assert(
      bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      'not a PNG',
    );
    // 16:9 was asked for: the PNG's IHDR says so.
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    assert(Math.abs(width / height - 16 / 9) < 0.02, `PNG is ${width}x${height}, not 16:9`);
    return `${binary.data.fileName} ${width}x${height} ${bytes.length} bytes`;
  },
  /** Moderate: three texts split into Passed (2) and Flagged (1) on the violence policy. */
  'moderate-text.workflow.json': (run) => {
    const [passed] = nodeRun(run, 'Passed');
    const [flagged] = nodeRun(run, 'Flagged');
    assert(passed.length === 2, `Passed got ${passed.length} items`);
    assert(flagged.length === 1, `Flagged got ${flagged.length} items`);
    assert(
      flagged[0].json.nsfw === true && flagged[0].json.policy === 'violence',
      JSON.stringify(flagged[0].json),
    );
    assert(flagged[0].json.score >= 0.5, `flagged score ${flagged[0].json.score}`);
    assert(
      passed.every((i) => i.json.nsfw === false && i.json.score < 0.5),
      JSON.stringify(passed.map((i) => i.json)),
    );
    return `passed ${passed.length}, flagged ${flagged.length} (score ${flagged[0].json.score})`;
  },
  /** Detect Faces then Swap Face: one face found, swapped into the target, the JPEG/PNG result stored. */
  'face-swap.workflow.json': (run, { userFolder }) => {
    const [faces] = nodeRun(run, 'Detect Faces');
    assert(faces.length >= 1, 'no face detected');
    assert(/^http/.test(faces[0].json.face_url), `face_url ${faces[0].json.face_url}`);
    const [swapped] = nodeRun(run, 'Swap Face');
    assert(swapped.length === faces.length, `${swapped.length} swaps for ${faces.length} faces`);
    const { json, binary } = swapped[0];
    assert(json.status === 'completed' && json.type === 'image', `swap ${json.status} ${json.type}`);
    assert(json.output_url === undefined, 'Output "Download File" should not return the URL');
    assert(binary?.swapped, 'no binary "swapped"');
    assert(/^image\/(jpeg|png|webp)$/.test(binary.swapped.mimeType), `mimeType ${binary.swapped.mimeType}`);
    const bytes = binaryFile(userFolder, binary.swapped);
    const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    const png = bytes[0] === 0x89 && bytes[1] === 0x50;
    assert(jpeg || png, 'the swapped file is neither JPEG nor PNG');
    assert(
      binary.swapped.mimeType === (jpeg ? 'image/jpeg' : binary.swapped.mimeType),
      'mime type does not match the bytes',
    );
    return `${faces.length} face(s), ${binary.swapped.fileName} ${binary.swapped.mimeType} ${bytes.length} bytes`;
  },
};

/** The background install started by prepare(), if one was: resolves when it has ended. */
let preparing;

/**
 * Starts installing n8n (test/n8n/install-n8n.mjs) in a child process, unless the cache already holds
 * it. scripts/run.mjs calls this before lint and vitest, so the download and sqlite3's compile (6-7
 * minutes on a machine that has never installed it) overlap them. The child runs at the lowest CPU
 * and I/O priority (nice 19, ionice idle) so the tests keep the machine, and writes its output to
 * .cache/n8n-install.log. Whatever its outcome, run() then calls installN8n as before: it finds the
 * install complete, or installs (and reports a failure) itself.
 */
export function prepare({ root }) {
  preparing = (async () => {
    const script = join(root, 'test', 'n8n', 'install-n8n.mjs');
    const { n8nPaths } = await import(pathToFileURL(script).href);
    if (existsSync(n8nPaths().complete)) return undefined;
    mkdirSync(join(root, '.cache'), { recursive: true });
    const logFile = join(root, '.cache', 'n8n-install.log');
    const out = openSync(logFile, 'w');
    const lowest = existsSync('/usr/bin/ionice') ? ['ionice', '-c', '3'] : [];
    const started = Date.now();
    const code = await new Promise((resolve) => {
      const child = spawn('nice', ['-n', '19', ...lowest, process.execPath, script], {
        cwd: root,
        stdio: ['ignore', out, out],
      });
      child.on('error', () => resolve(-1));
      child.on('exit', (c) => resolve(c ?? -1));
    });
    closeSync(out);
    return { code, seconds: Math.round((Date.now() - started) / 1000), logFile };
  })().catch((err) => ({ code: -1, seconds: 0, logFile: String(err) }));
}

export async function run({ root }) {
  const background = await preparing;
  if (background) {
    log(
      `n8n was installed in the background during the other suites: exit ${background.code} after ${background.seconds} s (${background.logFile})`,
    );
  }
  let passed = 0;
  let failed = 0;
  const check = async (name, fn) => {
    const started = Date.now();
    try {
      const detail = await fn();
      passed++;
      log(`PASS ${name}${detail ? `: ${detail}` : ''} (${Math.round((Date.now() - started) / 1000)} s)`);
      return true;
    } catch (err) {
      failed++;
      log(`FAIL ${name}: ${err?.stack ?? err}`);
      return false;
    }
  };
  const nodesDir = join(root, 'nodes');
  const work = mkdtempSync(join(tmpdir(), 'mediagen-n8n-e2e-'));
  const pnpmBin = [
    '-y',
    `pnpm@${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.replace(/^pnpm@/, '')}`,
  ];
  let server;
  let files;
  try {
    // 1. n8n's lint rules on the source.
    await check('lint (n8n community-nodes rules)', async () => {
      log('$ eslint . (in nodes/, config nodes/eslint.config.mjs)');
      const r = await capture('npx', ['eslint', '.'], { cwd: nodesDir });
      assert(r.code === 0, `eslint failed:\n${r.stdout}${r.stderr}`);
    });

    // 2. Build and pack; check the tarball.
    let unpacked;
    await check('npm package tarball: dist only, no runtime dependencies', async () => {
      log('$ node nodes/build.mjs && pnpm pack');
      const b = await capture('node', ['build.mjs'], { cwd: nodesDir });
      assert(b.code === 0, `build failed:\n${b.stdout}${b.stderr}`);
      const packDir = join(work, 'pack');
      mkdirSync(packDir);
      const p = await capture('npx', [...pnpmBin, 'pack', '--pack-destination', packDir], { cwd: nodesDir });
      assert(p.code === 0, `pnpm pack failed:\n${p.stdout}${p.stderr}`);
      const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
      assert(tgz, 'no tarball');
      const list = await capture('tar', ['tzf', join(packDir, tgz)]);
      const entries = list.stdout.split('\n').filter((l) => l && !l.endsWith('/'));
      const outside = entries.filter(
        (e) => !/^package\/(dist\/.+|package\.json|README\.md|LICENSE(\.md)?)$/.test(e),
      );
      assert(outside.length === 0, `files outside dist/: ${outside.join(', ')}`);
      for (const needed of [
        'package/dist/nodes/MediaGen/MediaGen.node.js',
        'package/dist/nodes/MediaGen/MediaGen.node.json',
        'package/dist/nodes/MediaGen/mediagen.svg',
        'package/dist/nodes/MediaGen/mediagen.dark.svg',
        'package/dist/credentials/MediaGenApi.credentials.js',
      ]) {
        assert(entries.includes(needed), `missing ${needed}`);
      }
      unpacked = join(work, 'unpacked');
      mkdirSync(unpacked);
      const x = await capture('tar', ['xzf', join(packDir, tgz), '-C', unpacked, '--strip-components=1']);
      assert(x.code === 0, x.stderr);
      const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
      assert(
        Object.keys(pkg.dependencies ?? {}).length === 0,
        `runtime dependencies: ${JSON.stringify(pkg.dependencies)}`,
      );
      assert(
        JSON.stringify(Object.keys(pkg.peerDependencies ?? {})) === '["n8n-workflow"]',
        'peerDependencies must be n8n-workflow only',
      );
      assert(pkg.n8n?.n8nNodesApiVersion === 1 && pkg.n8n?.strict === true, 'n8n block');
      assert(pkg.keywords?.includes('n8n-community-node-package'), 'keyword');
      assert(pkg.license === 'MIT', 'license');
      const bundle = readFileSync(join(unpacked, 'dist/nodes/MediaGen/MediaGen.node.js'), 'utf8');
      const requires = [...bundle.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
      const external = [...new Set(requires)].filter((m) => m !== 'n8n-workflow');
      assert(
        external.length === 0,
        `the bundle requires modules besides n8n-workflow: ${external.join(', ')}`,
      );
      assert(!/undici/.test(bundle), 'undici is in the bundle');
      return `${tgz}: ${entries.length} files, ${(statSync(join(packDir, tgz)).size / 1024).toFixed(0)} KiB`;
    });

    // 3. The community package scan rules.
    const { scanPackage, TARBALL_PATTERNS, SOURCE_PATTERNS } = await import(
      pathToFileURL(join(root, 'test', 'n8n', 'scan-package.mjs')).href
    );
    await check('community package scan: tarball', async () => {
      assert(unpacked, 'no tarball');
      const r = await scanPackage(root, unpacked, TARBALL_PATTERNS);
      assert(r.passed, r.report);
      return `${r.files} files, ${r.warnings} warning(s)`;
    });
    await check('community package scan: source', async () => {
      const r = await scanPackage(root, nodesDir, SOURCE_PATTERNS);
      assert(r.passed, r.report);
      return `${r.files} files, ${r.warnings} warning(s)`;
    });

    // 4. A real n8n.
    const { installN8n } = await import(pathToFileURL(join(root, 'test', 'n8n', 'install-n8n.mjs')).href);
    let paths;
    const ready = await check('install n8n (cached outside the workspace)', async () => {
      paths = await installN8n({ log });
      return paths.root;
    });
    const workflows = readdirSync(join(root, 'test', 'n8n', 'workflows'))
      .filter((f) => f.endsWith('.workflow.json'))
      .map((f) => join(root, 'test', 'n8n', 'workflows', f));
    // The workflow docs/n8n.md tells users to import runs too (with an id and this run's credential).
    workflows.push(join(root, 'docs', 'n8n-first-workflow.json'));
    if (!ready || !unpacked) {
      failed += workflows.length;
      log(`FAIL ${workflows.length} workflow(s) not run: n8n or the package is missing`);
      return { passed, failed };
    }

    log('starting the mediagen server (embedded PostgreSQL) and a fixture file server');
    const testing = await import(pathToFileURL(join(root, 'server', 'dist', 'testing', 'index.js')).href);
    server = await testing.startTestServer({});
    files = await testing.startFileServer(join(root, 'test', 'fixtures', 'faces'));
    const fixturesBase = files.url('x').replace(/\/x$/, '');

    const userFolder = join(work, 'n8n-user');
    const pkgDir = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-mediagen');
    mkdirSync(dirname(pkgDir), { recursive: true });
    await capture('cp', ['-r', unpacked, pkgDir]);
    const env = {
      ...process.env,
      N8N_USER_FOLDER: userFolder,
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      // n8n's own Node 24 first on PATH (n8n may spawn helpers with `node`).
      PATH: `${dirname(paths.nodeBin)}:${process.env.PATH}`,
    };
    const n8n = async (args, timeoutMs = 240_000) => {
      log(`$ n8n ${args.join(' ')}`);
      return capture(paths.nodeBin, [paths.n8nBin, ...args], { env, cwd: work, timeoutMs });
    };

    const credentialFile = join(work, 'credentials.json');
    writeFileSync(
      credentialFile,
      JSON.stringify([
        {
          id: 'mgE2eCredential1',
          name: 'MediaGen e2e',
          type: 'mediaGenApi',
          data: { apiKey: server.apiKey, baseUrl: server.baseUrl },
        },
      ]),
    );
    const imported = await n8n(['import:credentials', `--input=${credentialFile}`]);
    if (imported.code !== 0) log(imported.stdout.slice(-2000), imported.stderr.slice(-2000));

    for (const path of workflows) {
      const file = basename(path);
      await check(`n8n workflow ${file}`, async () => {
        assert(imported.code === 0, 'importing the credential failed');
        const workflow = JSON.parse(readFileSync(path, 'utf8').replaceAll('__FIXTURES__', fixturesBase));
        workflow.id ??= 'mgDocsFirstWork1';
        for (const node of workflow.nodes) {
          if (node.credentials?.mediaGenApi) {
            node.credentials.mediaGenApi = { id: 'mgE2eCredential1', name: 'MediaGen e2e' };
          }
        }
        const wfFile = join(work, file);
        writeFileSync(wfFile, JSON.stringify(workflow));
        const imp = await n8n(['import:workflow', `--input=${wfFile}`]);
        assert(
          imp.code === 0,
          `import:workflow failed:\n${imp.stdout.slice(-3000)}${imp.stderr.slice(-3000)}`,
        );
        const exec = await n8n(['execute', `--id=${workflow.id}`, '--rawOutput']);
        assert(
          exec.code === 0,
          `n8n execute failed (exit ${exec.code}):\n${exec.stdout.slice(-4000)}\n${exec.stderr.slice(-4000)}`,
        );
        const result = parseRawOutput(exec.stdout);
        return CHECKS[file](result, { userFolder });
      });
    }
  } finally {
    await files?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  return { passed, failed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const r = await run({ root });
  console.log(`n8n-e2e: ${r.passed} passed, ${r.failed} failed`);
  process.exit(r.failed === 0 ? 0 : 1);
}
