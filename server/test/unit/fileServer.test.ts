/** The tests' and benchmarks' static file server, in this process and in a child process of its own. */
import { describe, expect, it } from 'vitest';
import { startFileServer } from '../../dist/testing/index.js';
import { FIXTURES } from '../helpers.js';

describe.each([false, true])('startFileServer (ownProcess: %s)', (ownProcess) => {
  it('serves a fixture with its type and size, 404 for a missing file, 403 outside the directory', async () => {
    const files = await startFileServer(`${FIXTURES}moderation`, { ownProcess });
    try {
      const res = await fetch(files.url('grace-hopper.jpg'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      expect(body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])); // a JPEG
      expect((await fetch(files.url('missing.jpg'))).status).toBe(404);
      expect((await fetch(`${files.baseUrl}/..%2f..%2fpackage.json`)).status).toBe(403);
    } finally {
      await files.close();
    }
    await expect(fetch(files.url('grace-hopper.jpg'))).rejects.toThrow();
  });
});
