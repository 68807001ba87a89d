/** RecentKeys (api/recentKeys.ts): the hint of keys accepted lately expires, forgets refusals, stays bounded. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../src/api/recentKeys.js';

const hash = (key: string) => createHash('sha256').update(key).digest();

describe('RecentKeys', () => {
  it('knows an accepted key until its time runs out, and not a moment after', () => {
    let now = 1_000;
    const keys = new RecentKeys(60_000, 100, () => now);
    expect(keys.has(hash('a'))).toBe(false);
    keys.accepted(hash('a'));
    now += 59_999;
    expect(keys.has(hash('a'))).toBe(true);
    now += 1;
    expect(keys.has(hash('a'))).toBe(false);
  });

  it('a new acceptance extends the time; a refusal forgets at once', () => {
    let now = 0;
    const keys = new RecentKeys(10, 100, () => now);
    keys.accepted(hash('a'));
    now = 8;
    keys.accepted(hash('a'));
    now = 15;
    expect(keys.has(hash('a'))).toBe(true);
    keys.refused(hash('a'));
    expect(keys.has(hash('a'))).toBe(false);
  });

  it('keeps at most `max` keys, dropping the one accepted longest ago', () => {
    const keys = new RecentKeys(60_000, 3);
    for (const k of ['a', 'b', 'c']) keys.accepted(hash(k));
    keys.accepted(hash('a')); // now the most recent
    keys.accepted(hash('d')); // b goes
    expect(['a', 'b', 'c', 'd'].map((k) => keys.has(hash(k)))).toEqual([true, false, true, true]);
  });
});
