// HEALTHCHECK of the mediagen image (docker/Dockerfile). Plain Node, no dependencies.
//
// The role is read from PID 1's command line (`tini -- mediagen-entrypoint <role>`), so the same image
// answers correctly whatever command a container was started with:
// - all, api: GET http://127.0.0.1:$PORT/readyz must answer 2xx within 4 s (the server checks its database).
// - worker:   a worker has no HTTP port; it is healthy while its `node server/dist/main.js` process runs
//             (graphile-worker reconnects on its own; a fatal error ends the process and the restart policy
//             takes over).
// - anything else (migrate, admin, a shell): healthy.
import { readdirSync, readFileSync } from 'node:fs';

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function role() {
  const args = cmdline(1);
  const at = args.findIndex((a) => a.endsWith('mediagen-entrypoint'));
  if (at === -1) return 'all';
  return args[at + 1] ?? 'all';
}

function serverRunning() {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .some((pid) => cmdline(pid).some((a) => a.endsWith('server/dist/main.js')));
}

async function ready() {
  const port = process.env.PORT || '8080';
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) });
    if (!res.ok) console.error(`/readyz answered ${res.status}: ${await res.text()}`);
    return res.ok;
  } catch (err) {
    console.error(`/readyz unreachable: ${err?.cause?.code ?? err?.message ?? err}`);
    return false;
  }
}

const r = role();
let healthy = true;
if (r === 'all' || r === 'api' || r.startsWith('--api')) healthy = await ready();
else if (r === 'worker' || r.startsWith('--worker')) {
  healthy = serverRunning();
  if (!healthy) console.error('worker process is not running');
}
process.exit(healthy ? 0 : 1);
