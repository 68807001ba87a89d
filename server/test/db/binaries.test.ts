/**
 * As root, PostgreSQL runs as the postgres user, which cannot execute binaries inside a directory it
 * cannot enter (a project under /root). reachableBinaries() then copies them where it can.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageBinaries, reachableBinaries, runAsUser } from '../../dist/db/embedded.js';

describe.runIf(process.getuid?.() === 0)('embedded PostgreSQL binaries as root', () => {
  it('copies binaries out of a directory the postgres user cannot enter, and they run as that user', async () => {
    const real = await packageBinaries();
    const hidden = await mkdtemp(join(tmpdir(), 'mediagen-bins-')); // 0700, owned by root
    const version = `test-${process.pid}-${Date.now()}`;
    let movedRoot: string | undefined;
    try {
      await cp(real.root, join(hidden, 'native'), { recursive: true, verbatimSymlinks: true });
      const bins = {
        root: join(hidden, 'native'),
        postgres: join(hidden, 'native', 'bin', 'postgres'),
        initdb: join(hidden, 'native', 'bin', 'initdb'),
        version,
      };
      const user = runAsUser();
      const blocked = spawnSync(bins.postgres, ['--version'], { uid: user.uid, gid: user.gid });
      expect(blocked.error ?? blocked.status).toBeTruthy(); // EACCES as the postgres user
      const messages: string[] = [];
      const moved = await reachableBinaries(bins, user, (l: string) => messages.push(l));
      movedRoot = moved.root;
      expect(moved.root).not.toBe(bins.root);
      expect(messages.join('\n')).toMatch(/cannot reach/);
      const ok = spawnSync(moved.postgres, ['--version'], { uid: user.uid, gid: user.gid, encoding: 'utf8' });
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/postgres \(PostgreSQL\) \d+/);
    } finally {
      await rm(hidden, { recursive: true, force: true });
      if (movedRoot) await rm(movedRoot, { recursive: true, force: true });
    }
  });
});
