/**
 * Checks of docker/ that run without a Docker engine (none runs on the CI machines, so the images are
 * never built here). Each check is one test; the summary line says which tool ran where there is a choice.
 *
 *   node scripts/suites/docker-checks.mjs      (also run by `npm test` through scripts/run.mjs)
 *
 * - compose parses: `docker compose config` when the compose plugin answers `docker compose version`;
 *   otherwise the file is parsed with the `yaml` package, interpolated the way compose does, and checked
 *   against the compose-spec rules that matter here (keys, references, volumes, ports, healthchecks).
 * - Dockerfile lint: `dockerfile-utils` from the npm registry (the validator behind VS Code's Docker
 *   language server), every rule as an error; hadolint as well when it is on PATH.
 * - the image's commands are the ones the tests start the server with (server/src/testing/index.ts).
 * - docker/.env.example documents every variable server/src/config.ts reads, and compose passes them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

class Skip extends Error {}

// ---------------------------------------------------------------------------------------------------
// Small helpers

function read(root, rel) {
  return readFileSync(join(root, rel), 'utf8');
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** KEY=value lines of an env file (comments and blanks ignored). */
export function parseEnvFile(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

/** Every variable named in an env file, set (`NAME=`) or documented commented out (`# NAME=`). */
export function envFileNames(text) {
  const names = new Map();
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(?:#\s*)?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (m) names.set(m[1], i);
  });
  return names;
}

/** Compose-style interpolation: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+a}, ${VAR+a}. */
export function interpolate(value, env, errors, used) {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name, op, arg, bare) => {
      if (match === '$$') return '$';
      const key = name ?? bare;
      used?.add(key);
      const v = env[key];
      const set = v !== undefined;
      const nonEmpty = set && v !== '';
      switch (op) {
        case ':-':
          return nonEmpty ? v : interpolate(arg, env, errors, used);
        case '-':
          return set ? v : interpolate(arg, env, errors, used);
        case ':?':
          if (!nonEmpty) errors.push(`${key}: ${arg || 'required'}`);
          return v ?? '';
        case '?':
          if (!set) errors.push(`${key}: ${arg || 'required'}`);
          return v ?? '';
        case ':+':
          return nonEmpty ? interpolate(arg, env, errors, used) : '';
        case '+':
          return set ? interpolate(arg, env, errors, used) : '';
        default:
          return v ?? '';
      }
    },
  );
}

function interpolateTree(node, env, errors, used) {
  if (typeof node === 'string') return interpolate(node, env, errors, used);
  if (Array.isArray(node)) return node.map((n) => interpolateTree(n, env, errors, used));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, interpolateTree(v, env, errors, used)]),
    );
  }
  return node;
}

async function loadYaml() {
  const { parse } = await import('yaml');
  return parse;
}

/** The compose file as compose sees it: YAML with merge keys, then interpolated with `env`. */
export async function loadCompose(root, env) {
  const parse = await loadYaml();
  const raw = parse(read(root, 'docker/compose.yml'), { merge: true });
  const errors = [];
  const used = new Set();
  const doc = interpolateTree(raw, env, errors, used);
  return { raw, doc, errors, used };
}

/** docker/.env.example with its empty secrets filled, as an operator's docker/.env would be. */
function filledEnv(root) {
  const env = parseEnvFile(read(root, 'docker/.env.example'));
  for (const [k, v] of Object.entries(env))
    if (v === '') env[k] = `check-${k.toLowerCase()}-0123456789abcdef0123456789`;
  return env;
}

// ---------------------------------------------------------------------------------------------------
// Compose-spec rules (the subset of https://github.com/compose-spec/compose-spec this file can use)

const TOP_LEVEL = new Set([
  'name',
  'version',
  'services',
  'volumes',
  'networks',
  'configs',
  'secrets',
  'include',
  'models',
]);
const SERVICE_KEYS = new Set(
  `annotations attach blkio_config build cap_add cap_drop cgroup cgroup_parent command configs container_name
  cpu_count cpu_percent cpu_period cpu_quota cpu_rt_period cpu_rt_runtime cpu_shares cpus cpuset credential_spec
  depends_on deploy develop device_cgroup_rules devices dns dns_opt dns_search domainname entrypoint env_file
  environment expose extends external_links extra_hosts gpus group_add healthcheck hostname image init ipc
  isolation labels links logging mac_address mem_limit mem_reservation mem_swappiness memswap_limit
  network_mode networks oom_kill_disable oom_score_adj pid pids_limit platform ports post_start pre_stop
  privileged profiles pull_policy read_only restart runtime scale secrets security_opt shm_size stdin_open
  stop_grace_period stop_signal storage_opt sysctls tmpfs tty ulimits user userns_mode uts volumes
  volumes_from working_dir`.split(/\s+/),
);
const BUILD_KEYS = new Set(
  'context dockerfile dockerfile_inline args ssh cache_from cache_to additional_contexts extra_hosts isolation labels network no_cache platforms privileged pull shm_size tags target secrets ulimits entitlements'.split(
    ' ',
  ),
);
const HEALTH_KEYS = new Set([
  'test',
  'interval',
  'timeout',
  'retries',
  'start_period',
  'start_interval',
  'disable',
]);
const CONDITIONS = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);
const RESTART = /^(no|always|on-failure(:\d+)?|unless-stopped)$/;
const DURATION = /^(\d+(\.\d+)?(us|ms|s|m|h))+$/;

/** Problems with a compose document (already interpolated), per the compose spec. */
export function composeSpecProblems(doc, root) {
  const p = [];
  if (!doc || typeof doc !== 'object') return ['the file is not a mapping'];
  for (const k of Object.keys(doc))
    if (!TOP_LEVEL.has(k) && !k.startsWith('x-')) p.push(`unknown top-level key "${k}"`);
  const services = doc.services ?? {};
  if (!Object.keys(services).length) p.push('no services');
  const volumes = new Set(Object.keys(doc.volumes ?? {}));
  for (const [name, s] of Object.entries(services)) {
    const at = `services.${name}`;
    if (!s || typeof s !== 'object') {
      p.push(`${at} is not a mapping`);
      continue;
    }
    for (const k of Object.keys(s))
      if (!SERVICE_KEYS.has(k) && !k.startsWith('x-')) p.push(`${at}: unknown key "${k}"`);
    if (!s.image && !s.build) p.push(`${at}: needs image or build`);
    if (s.build) {
      const b = typeof s.build === 'string' ? { context: s.build } : s.build;
      for (const k of Object.keys(b)) if (!BUILD_KEYS.has(k)) p.push(`${at}.build: unknown key "${k}"`);
      const context = join(root, 'docker', b.context ?? '.');
      if (!existsSync(context)) p.push(`${at}.build.context ${b.context} does not exist`);
      else if (b.dockerfile && !existsSync(join(context, b.dockerfile)))
        p.push(`${at}.build.dockerfile ${b.dockerfile} does not exist`);
    }
    for (const k of ['command', 'entrypoint']) {
      if (
        s[k] !== undefined &&
        typeof s[k] !== 'string' &&
        !(Array.isArray(s[k]) && s[k].every((x) => typeof x === 'string'))
      )
        p.push(`${at}.${k} must be a string or a list of strings`);
    }
    if (s.restart !== undefined && !RESTART.test(String(s.restart)))
      p.push(`${at}.restart "${s.restart}" is not no|always|on-failure|unless-stopped`);
    if (s.environment !== undefined) {
      const env = s.environment;
      if (Array.isArray(env)) {
        for (const e of env)
          if (typeof e !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.]*(=|$)/.test(e))
            p.push(`${at}.environment: bad entry ${JSON.stringify(e)}`);
      } else if (env && typeof env === 'object') {
        for (const [k, v] of Object.entries(env)) {
          if (v !== null && !['string', 'number', 'boolean'].includes(typeof v))
            p.push(`${at}.environment.${k} must be a scalar`);
        }
      } else p.push(`${at}.environment must be a mapping or a list`);
    }
    const deps = s.depends_on;
    if (deps !== undefined) {
      const entries = Array.isArray(deps) ? deps.map((d) => [d, {}]) : Object.entries(deps);
      for (const [d, opts] of entries) {
        if (!services[d]) p.push(`${at}.depends_on: no service "${d}"`);
        if (opts?.condition && !CONDITIONS.has(opts.condition))
          p.push(
            `${at}.depends_on.${d}.condition "${opts.condition}" is not one of ${[...CONDITIONS].join(', ')}`,
          );
        if (
          opts?.condition === 'service_healthy' &&
          services[d] &&
          !services[d].healthcheck &&
          !dockerfileHasHealthcheck(root, services[d])
        )
          p.push(`${at}.depends_on.${d}: service_healthy but ${d} has no healthcheck`);
      }
    }
    for (const port of s.ports ?? []) {
      if (typeof port === 'object') continue;
      if (
        !/^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/.test(
          String(port),
        )
      )
        p.push(`${at}.ports: bad port "${port}"`);
    }
    for (const v of s.volumes ?? []) {
      if (typeof v !== 'string') continue;
      const [source, target] = v.split(':');
      if (!target) continue; // anonymous volume
      if (!target.startsWith('/')) p.push(`${at}.volumes: target "${target}" must be absolute`);
      if (!/^[./~]/.test(source) && !volumes.has(source))
        p.push(`${at}.volumes: named volume "${source}" is not declared under volumes:`);
    }
    if (s.healthcheck) {
      for (const k of Object.keys(s.healthcheck))
        if (!HEALTH_KEYS.has(k)) p.push(`${at}.healthcheck: unknown key "${k}"`);
      const t = s.healthcheck.test;
      if (
        t !== undefined &&
        typeof t !== 'string' &&
        !(Array.isArray(t) && ['CMD', 'CMD-SHELL', 'NONE'].includes(t[0]))
      )
        p.push(`${at}.healthcheck.test must be a string or start with CMD, CMD-SHELL or NONE`);
      for (const k of ['interval', 'timeout', 'start_period', 'start_interval'])
        if (s.healthcheck[k] !== undefined && !DURATION.test(String(s.healthcheck[k])))
          p.push(`${at}.healthcheck.${k} "${s.healthcheck[k]}" is not a duration`);
    }
    if (s.stop_grace_period !== undefined && !DURATION.test(String(s.stop_grace_period)))
      p.push(`${at}.stop_grace_period is not a duration`);
  }
  return p;
}

function dockerfileHasHealthcheck(root, service) {
  const b = service.build;
  if (!b) return false;
  const file = join(
    root,
    'docker',
    typeof b === 'string' ? b : (b.context ?? '.'),
    typeof b === 'string' ? 'Dockerfile' : (b.dockerfile ?? 'Dockerfile'),
  );
  return existsSync(file) && /^HEALTHCHECK\s+(?!NONE)/m.test(readFileSync(file, 'utf8'));
}

// ---------------------------------------------------------------------------------------------------
// Dockerfile reading

/** Instructions of a Dockerfile with continuation lines joined: [{ keyword, args, line }]. */
export function dockerInstructions(text) {
  const out = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((line, i) => {
    if (!buf && (/^\s*#/.test(line) || !line.trim())) return;
    if (buf && /^\s*#/.test(line)) return;
    if (!buf) start = i + 1;
    if (/\\\s*$/.test(line)) {
      buf += line.replace(/\\\s*$/, ' ');
      return;
    }
    buf += line;
    const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(buf);
    if (m) out.push({ keyword: m[1].toUpperCase(), args: m[2].trim(), line: start });
    buf = '';
  });
  return out;
}

/** The instructions of the last stage. */
function finalStage(instructions) {
  const last = instructions.map((x) => x.keyword).lastIndexOf('FROM');
  return instructions.slice(last);
}

/** role -> argv of `node ...` from docker/entrypoint.sh's case arms, e.g. api -> ['server/dist/main.js','--api']. */
export function entrypointRoles(text) {
  const roles = {};
  for (const m of text.matchAll(
    /^\s*([a-z-]+(?:\s*\|\s*[a-z-]+)*)\)\s*exec node ([^;"]+?)\s*(?:"\$@")?\s*;;/gm,
  )) {
    for (const r of m[1].split('|')) roles[r.trim()] = m[2].trim().split(/\s+/);
  }
  return roles;
}

// ---------------------------------------------------------------------------------------------------
// The checks

/** Names of the variables server/src/config.ts reads: keys of its env schema and direct env reads. */
export function configVariables(text) {
  const names = new Set();
  const schema = /const Env = z\s*\.object\(\{([\s\S]*?)\n\}\)/.exec(text);
  if (schema) for (const m of schema[1].matchAll(/^\s{2}([A-Z][A-Z0-9_]*)\s*:/gm)) names.add(m[1]);
  for (const m of text.matchAll(/\benv(?:\.|\[\s*['"])([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
  return names;
}

function which(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split('\n')[0] : undefined;
}

function checks(root) {
  const pkg = JSON.parse(read(root, 'package.json'));
  const pnpmVersion = pkg.packageManager.replace(/^pnpm@/, '');
  const dockerfiles = ['docker/Dockerfile', 'docker/n8n.Dockerfile'];

  return [
    [
      'compose file parses',
      async () => {
        const env = filledEnv(root);
        const version = which('docker', ['compose', 'version']);
        if (version) {
          const dir = mkdtempSync(join(tmpdir(), 'mediagen-compose-'));
          try {
            const envFile = join(dir, '.env');
            const { writeFileSync } = await import('node:fs');
            writeFileSync(
              envFile,
              Object.entries(env)
                .map(([k, v]) => `${k}=${v}`)
                .join('\n'),
            );
            const r = spawnSync(
              'docker',
              ['compose', '--env-file', envFile, '-f', join(root, 'docker/compose.yml'), 'config', '--quiet'],
              {
                encoding: 'utf8',
                timeout: 60_000,
              },
            );
            assert(r.status === 0, `docker compose config failed: ${r.stderr || r.stdout}`);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          return { detail: `checked by \`docker compose config\` (${version})` };
        }
        const { doc, errors } = await loadCompose(root, env);
        assert(
          errors.length === 0,
          `interpolation with docker/.env.example (secrets filled): ${errors.join('; ')}`,
        );
        const problems = composeSpecProblems(doc, root);
        assert(problems.length === 0, problems.join('\n'));
        return {
          detail:
            'no `docker compose` plugin here: parsed with the yaml package, interpolated, checked against compose-spec rules',
        };
      },
    ],
    [
      'compose runs PostgreSQL, a one-shot migrate, api, scalable workers and n8n',
      async () => {
        const { doc } = await loadCompose(root, filledEnv(root));
        const s = doc.services;
        for (const name of ['postgres', 'migrate', 'api', 'worker', 'n8n'])
          assert(s[name], `no ${name} service`);
        const vol = (svc, target) =>
          (svc.volumes ?? []).find((v) => String(v).split(':')[1] === target)?.split(':')[0];
        assert(
          vol(s.postgres, '/var/lib/postgresql/data') &&
            doc.volumes[vol(s.postgres, '/var/lib/postgresql/data')] !== undefined,
          'postgres keeps its data in a named volume',
        );
        assert(JSON.stringify(s.migrate.command) === '["migrate"]', 'migrate runs the `migrate` command');
        assert(String(s.migrate.restart) === 'no', 'migrate must not restart (it runs once)');
        assert(
          s.migrate.depends_on?.postgres?.condition === 'service_healthy',
          'migrate waits for a healthy postgres',
        );
        for (const name of ['api', 'worker']) {
          assert(
            s[name].depends_on?.migrate?.condition === 'service_completed_successfully',
            `${name} starts after migrate succeeded`,
          );
          assert(!s[name].container_name, `${name} has a container_name, so it cannot be scaled`);
          const storage = s[name].environment?.MEDIAGEN_STORAGE_DIR;
          assert(
            storage && vol(s[name], storage) === 'outputs',
            `${name} mounts the outputs volume at MEDIAGEN_STORAGE_DIR (${storage})`,
          );
          assert(
            s[name].environment?.DATABASE_URL?.includes('@postgres:'),
            `${name} uses the postgres service`,
          );
        }
        assert(
          JSON.stringify(s.api.command) === '["api"]' && JSON.stringify(s.worker.command) === '["worker"]',
          'api and worker run their roles',
        );
        assert(!s.worker.ports, 'worker publishes no ports (so --scale worker=N works)');
        assert(
          s.n8n.build?.dockerfile === 'docker/n8n.Dockerfile',
          'n8n is built from docker/n8n.Dockerfile',
        );
        assert(
          /^http:\/\/api:8080\/api\/v3$/.test(s.n8n.environment?.MEDIAGEN_API_URL ?? ''),
          'n8n credential points at http://api:8080/api/v3',
        );
        assert(String(s.api.environment.PORT) === '8080', 'the API listens on 8080 inside the container');
        return {};
      },
    ],
    [
      'compose refuses to start without its secrets',
      async () => {
        const env = parseEnvFile(read(root, 'docker/.env.example'));
        const { errors } = await loadCompose(root, env);
        for (const secret of ['POSTGRES_PASSWORD', 'MEDIAGEN_SIGNING_SECRET', 'N8N_ENCRYPTION_KEY'])
          assert(
            errors.some((e) => e.startsWith(`${secret}:`)),
            `an empty ${secret} must stop compose (\${${secret}:?...})`,
          );
        const { errors: none } = await loadCompose(root, filledEnv(root));
        assert(none.length === 0, `with the secrets set compose still complains: ${none.join('; ')}`);
        return {};
      },
    ],
    [
      'Dockerfiles pass dockerfile-utils (npm) with every rule as an error',
      async () => {
        const { validate, ValidationSeverity } = require('dockerfile-utils');
        const all = Object.fromEntries(
          [
            'deprecatedMaintainer',
            'directiveCasing',
            'emptyContinuationLine',
            'instructionCasing',
            'instructionCmdMultiple',
            'instructionEntrypointMultiple',
            'instructionHealthcheckMultiple',
            'instructionJSONInSingleQuotes',
            'instructionWorkdirRelative',
          ].map((k) => [k, ValidationSeverity.ERROR]),
        );
        // The linter must be able to fail: a known-bad Dockerfile has to be flagged.
        const bad = validate('FROM node:20\nworkdir app\nUSER\nCMD a\nCMD b\n', all);
        assert(
          bad.length >= 3,
          `dockerfile-utils flagged only ${bad.length} problems in a known-bad Dockerfile`,
        );
        const found = [];
        for (const f of dockerfiles) {
          for (const d of validate(read(root, f), all))
            found.push(`${f}:${d.range.start.line + 1}: ${d.message}`);
        }
        assert(found.length === 0, found.join('\n'));
        const v = JSON.parse(readFileSync(require.resolve('dockerfile-utils/package.json'), 'utf8')).version;
        return { detail: `dockerfile-utils ${v}` };
      },
    ],
    [
      'Dockerfiles pass hadolint',
      async () => {
        const version = which('hadolint');
        if (!version)
          throw new Skip('hadolint is not installed (not in the npm registry nor Debian bookworm)');
        const r = spawnSync(
          'hadolint',
          dockerfiles.map((f) => join(root, f)),
          { encoding: 'utf8' },
        );
        assert(r.status === 0, r.stdout + r.stderr);
        return { detail: version };
      },
    ],
    [
      'server image: multi-stage, slim Node 20, non-root, Debian ffmpeg and espeak-ng, prod-only deps, HEALTHCHECK on /readyz',
      async () => {
        const ins = dockerInstructions(read(root, 'docker/Dockerfile'));
        const froms = ins.filter((x) => x.keyword === 'FROM');
        assert(froms.length >= 2, 'the Dockerfile has a single stage');
        const argDefault = (name) =>
          ins.find((x) => x.keyword === 'ARG' && x.args.startsWith(`${name}=`))?.args.split('=')[1];
        const base = froms
          .at(-1)
          .args.split(/\s+/)[0]
          .replace(/\$\{(\w+)\}/, (_, n) => argDefault(n) ?? '');
        assert(/^node:20[\w.-]*-slim$/.test(base), `runtime base "${base}" is not a slim Node 20 image`);
        const fin = finalStage(ins);
        const user = fin.filter((x) => x.keyword === 'USER').at(-1)?.args;
        assert(user && !/^(root|0)(:|$)/.test(user), `the runtime stage runs as "${user ?? 'root'}"`);
        const apt = fin
          .filter((x) => x.keyword === 'RUN' && /apt-get install/.test(x.args))
          .map((x) => x.args)
          .join(' ');
        for (const p of ['ffmpeg', 'espeak-ng'])
          assert(new RegExp(`\\b${p}\\b`).test(apt), `the runtime stage does not apt-get install ${p}`);
        assert(
          ins.some((x) => x.keyword === 'RUN' && /\bdeploy\b.*--prod/.test(x.args)),
          'no `pnpm deploy --prod` step',
        );
        const hc = fin.find((x) => x.keyword === 'HEALTHCHECK');
        assert(hc, 'no HEALTHCHECK in the runtime stage');
        assert(
          /healthcheck\.mjs/.test(hc.args) && /\/readyz/.test(read(root, 'docker/healthcheck.mjs')),
          'HEALTHCHECK does not query /readyz',
        );
        for (const f of dockerfiles) {
          const v = dockerInstructions(read(root, f)).find(
            (x) => x.keyword === 'ARG' && x.args.startsWith('PNPM_VERSION='),
          );
          assert(
            v?.args === `PNPM_VERSION=${pnpmVersion}`,
            `${f}: ${v?.args ?? 'no PNPM_VERSION'} differs from packageManager pnpm@${pnpmVersion}`,
          );
          for (const c of dockerInstructions(read(root, f)).filter(
            (x) => x.keyword === 'COPY' && !/--from=/.test(x.args),
          )) {
            const srcs = c.args
              .split(/\s+/)
              .filter((a) => !a.startsWith('--'))
              .slice(0, -1);
            for (const src of srcs)
              if (src !== '.')
                assert(existsSync(join(root, src)), `${f}:${c.line}: COPY source ${src} does not exist`);
          }
        }
        const installer = join(root, 'test/n8n/install-n8n.mjs');
        if (existsSync(installer)) {
          const tested = /N8N_VERSION\s*=\s*'([^']+)'/.exec(readFileSync(installer, 'utf8'))?.[1];
          const image = /^ARG N8N_VERSION=(\S+)/m.exec(read(root, 'docker/n8n.Dockerfile'))?.[1];
          assert(tested === image, `docker/n8n.Dockerfile runs n8n ${image}, the e2e tests n8n ${tested}`);
        }
        for (const sh of ['docker/entrypoint.sh', 'docker/n8n/entrypoint.sh']) {
          const r = spawnSync('sh', ['-n', join(root, sh)], { encoding: 'utf8' });
          assert(r.status === 0, `${sh}: ${r.stderr}`);
        }
        return {};
      },
    ],
    [
      'the image starts the server with the command the tests use',
      async () => {
        const ins = dockerInstructions(read(root, 'docker/Dockerfile'));
        const fin = finalStage(ins);
        const entry = JSON.parse(fin.find((x) => x.keyword === 'ENTRYPOINT')?.args ?? 'null');
        assert(
          Array.isArray(entry) && entry.at(-1) === '/usr/local/bin/mediagen-entrypoint',
          'ENTRYPOINT is not the mediagen entrypoint',
        );
        const workdir = fin.filter((x) => x.keyword === 'WORKDIR').at(-1)?.args;
        assert(
          workdir === '/app' &&
            fin.some((x) => x.keyword === 'COPY' && /\/deploy\/server \/app\/server$/.test(x.args)),
          'the server is not at /app/server (the command would differ from the tests)',
        );
        const roles = entrypointRoles(read(root, 'docker/entrypoint.sh'));
        const { doc } = await loadCompose(root, filledEnv(root));
        const cmd = JSON.parse(fin.find((x) => x.keyword === 'CMD')?.args ?? '[]');
        for (const role of [cmd[0], ...['migrate', 'api', 'worker'].map((s) => doc.services[s].command[0])])
          assert(
            roles[role],
            `role "${role}" used by the image or compose is not handled by docker/entrypoint.sh`,
          );
        const server = JSON.parse(read(root, 'server/package.json')).scripts ?? {};
        const expect = { all: server.start, api: server['start:api'], worker: server['start:worker'] };
        for (const [role, script] of Object.entries(expect)) {
          const argv = roles[role].join(' ').replace(/^server\//, '');
          assert(
            script === `node ${argv}`,
            `entrypoint role ${role} runs "node ${roles[role].join(' ')}", server/package.json "${script}"`,
          );
        }
        const mainTs = join(root, 'server/src/main.ts');
        const testing = join(root, 'server/src/testing/index.ts');
        if (!existsSync(mainTs) || !existsSync(testing))
          throw new Skip('server/src/main.ts or server/src/testing/index.ts not written yet');
        const main = readFileSync(mainTs, 'utf8');
        for (const role of ['api', 'worker', 'migrate'])
          for (const flag of roles[role].slice(1))
            assert(
              main.includes(`'${flag}'`) || main.includes(`"${flag}"`),
              `server/src/main.ts does not know ${flag}`,
            );
        const t = readFileSync(testing, 'utf8');
        assert(
          /['"`]main\.js['"`]|dist\/main\.js/.test(t),
          'server/src/testing/index.ts does not spawn dist/main.js',
        );
        for (const flag of ['--api', '--worker']) {
          if (t.includes(`'${flag}'`))
            assert(
              Object.values(roles).some((argv) => argv.includes(flag)),
              `the tests start ${flag}, the image has no role for it`,
            );
        }
        return {
          detail: `roles: ${Object.entries(roles)
            .map(([r, a]) => `${r}=node ${a.join(' ')}`)
            .join(', ')}`,
        };
      },
    ],
    [
      'docker/.env.example documents every variable server/src/config.ts reads, and compose passes them',
      async () => {
        const vars = configVariables(read(root, 'server/src/config.ts'));
        assert(
          vars.size >= 8,
          `found only ${vars.size} variables in server/src/config.ts; the parser is out of date`,
        );
        const exampleText = read(root, 'docker/.env.example');
        const lines = exampleText.split('\n');
        const names = envFileNames(exampleText);
        const missing = [...vars].filter((v) => !names.has(v));
        assert(missing.length === 0, `missing from docker/.env.example: ${missing.join(', ')}`);
        const isVarLine = (l) => /^\s*(?:#\s*)?[A-Z][A-Z0-9_]*=/.test(l);
        const uncommented = [...names].filter(([, i]) => {
          let j = i - 1;
          while (j >= 0 && isVarLine(lines[j]) && lines[j].startsWith('#')) j--;
          return !(j >= 0 && /^#\s+\S/.test(lines[j]) && !isVarLine(lines[j]));
        });
        assert(uncommented.length === 0, `no comment above: ${uncommented.map(([n]) => n).join(', ')}`);
        const { raw, used } = await loadCompose(root, filledEnv(root));
        const undocumented = [...used].filter((v) => !names.has(v));
        assert(
          undocumented.length === 0,
          `compose.yml uses variables not in docker/.env.example: ${undocumented.join(', ')}`,
        );
        const serverSources = readdirSync(join(root, 'server/src'), { recursive: true })
          .filter((f) => String(f).endsWith('.ts') && !String(f).startsWith('testing'))
          .map((f) => readFileSync(join(root, 'server/src', String(f)), 'utf8'))
          .join('\n');
        const unused = [...names.keys()].filter(
          (v) => !used.has(v) && !vars.has(v) && !serverSources.includes(v),
        );
        assert(unused.length === 0, `docker/.env.example lists variables nobody reads: ${unused.join(', ')}`);
        const passed = new Set(Object.keys(raw['x-mediagen-env'] ?? {}));
        const notPassed = [...vars].filter((v) => !passed.has(v));
        assert(notPassed.length === 0, `compose.yml (x-mediagen-env) does not pass: ${notPassed.join(', ')}`);
        return { detail: `${vars.size} server variables` };
      },
    ],
    [
      'n8n credential matches the node package',
      async () => {
        const { credentialFile, CREDENTIAL_TYPE } = await import(
          pathToFileURL(join(root, 'docker/n8n/mediagen-credential.mjs')).href
        );
        const dirs = ['nodes/credentials', 'nodes/src/credentials'].filter((d) => existsSync(join(root, d)));
        const found = dirs.flatMap((d) =>
          readdirSync(join(root, d))
            .filter((f) => f.endsWith('.credentials.ts'))
            .map((f) => join(d, f)),
        );
        if (!found.length) throw new Skip('nodes/credentials/*.credentials.ts not written yet');
        const file = found[0];
        const text = readFileSync(join(root, file), 'utf8');
        assert(
          new RegExp(`name\\s*=\\s*['"]${CREDENTIAL_TYPE}['"]`).test(text),
          `${file} does not declare the credential type ${CREDENTIAL_TYPE}`,
        );
        for (const field of Object.keys(credentialFile('k', 'u')[0].data))
          assert(new RegExp(`name:\\s*['"]${field}['"]`).test(text), `${file} has no field ${field}`);
        return {};
      },
    ],
    [
      "n8n's credential bootstrap creates a working key through the real admin API, once",
      async () => {
        const testingJs = join(root, 'server/dist/testing/index.js');
        if (!existsSync(testingJs)) throw new Skip('server/dist/testing/index.js not built');
        const { prepare, markImported } = await import(
          pathToFileURL(join(root, 'docker/n8n/mediagen-credential.mjs')).href
        );
        const { startTestServer } = await import(pathToFileURL(testingJs).href);
        const srv = await startTestServer({});
        const dir = mkdtempSync(join(tmpdir(), 'mediagen-n8n-cred-'));
        try {
          const env = {
            MEDIAGEN_API_URL: srv.baseUrl,
            MEDIAGEN_ADMIN_TOKEN: srv.adminToken,
            MEDIAGEN_N8N_BALANCE_USD: '3',
          };
          const file = await prepare(dir, env);
          assert(file, 'no credential file written');
          const [cred] = JSON.parse(readFileSync(file, 'utf8'));
          assert(cred.data.baseUrl === srv.baseUrl, 'credential baseUrl is not the API URL');
          const status = async (key) =>
            (
              await fetch(
                `${srv.baseUrl}/status/00000000-0000-0000-0000-000000000000`,
                key ? { headers: { authorization: `Bearer ${key}` } } : {},
              )
            ).status;
          assert((await status(undefined)) === 401, 'the API accepts calls without a key');
          const withKey = await status(cred.data.apiKey);
          assert(withKey !== 401 && withKey !== 403, `the created key is refused (${withKey})`);
          markImported(dir);
          assert((await prepare(dir, env)) === undefined, 'a restart would import the credential again');
          const again = await prepare(dir, { ...env, MEDIAGEN_N8N_API_KEY: 'mg_other_key' });
          assert(again, 'a changed key is not imported');
        } finally {
          rmSync(dir, { recursive: true, force: true });
          await srv.stop();
        }
        return {};
      },
    ],
  ];
}

export async function run({ root = join(dirname(fileURLToPath(import.meta.url)), '..', '..') } = {}) {
  let passed = 0,
    failed = 0,
    skipped = 0;
  console.log('\ndocker-checks (no Docker engine runs here: the images are not built by this suite)');
  for (const [name, fn] of checks(root)) {
    try {
      const r = await fn();
      passed++;
      console.log(`  ✓ ${name}${r?.detail ? `  [${r.detail}]` : ''}`);
    } catch (err) {
      if (err instanceof Skip) {
        skipped++;
        console.log(`  - ${name}  [skipped: ${err.message}]`);
      } else {
        failed++;
        console.log(
          `  ✗ ${name}\n    ${String(err?.message ?? err)
            .split('\n')
            .join('\n    ')}`,
        );
      }
    }
  }
  console.log(`docker-checks: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return { passed, failed, skipped };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await run();
  process.exit(r.failed ? 1 : 0);
}
