/**
 * media/fetch.ts against real local HTTP servers: private addresses refused unless allowed (literal,
 * by name through DNS, after a redirect), redirects limited and re-checked, size limits while
 * streaming, timeouts that name their limit, and the type sniffed from the bytes; the same for
 * fetchBytes (kept in memory).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaFetcher, MediaFetchError } from '../../dist/media/fetch.js';
import { FIXTURES } from '../helpers.js';

const PNG = readFileSync(join(FIXTURES, 'media', 'portrait.png'));
let server: Server;
let base: string;
let dir: string;
const open = new MediaFetcher({ allowPrivate: true });
const strict = new MediaFetcher({ allowPrivate: false });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-fetch-'));
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/image.mp4')
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(PNG); // lies about its type
    else if (url === '/image.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (url === '/to-ftp') res.writeHead(302, { location: 'ftp://example.com/x.png' }).end();
    else if (url === '/to-image') res.writeHead(301, { location: '/image.png' }).end();
    else if (url === '/late') setTimeout(() => res.writeHead(200).end(PNG), 1500).unref();
    else if (url === '/stall') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG.subarray(0, 100)); // then nothing more
    } else if (url === '/trickle') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write(PNG.subarray(0, 10)), 100).unref();
      res.on('close', () => clearInterval(timer));
    } else if (url === '/chunked') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      res.end(PNG);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await Promise.all([open.close(), strict.close()]);
  await rm(dir, { recursive: true, force: true });
});

const target = (name: string) => join(dir, name);

describe('MediaFetcher', () => {
  it('refuses private, loopback and link-local addresses unless allowed', async () => {
    for (const url of [
      `${base}/image.png`,
      'http://localhost:1/x.png',
      'http://[::1]:1/x.png',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x.png',
      'http://192.168.0.1/x.png',
    ]) {
      await expect(strict.fetch(url, target('a'), 'image', ['image'])).rejects.toThrow(
        /not a public address/,
      );
    }
    const got = await open.fetch(`${base}/image.png`, target('b'), 'image', ['image']);
    expect(got.mime).toBe('image/png');
  });

  it('checks the address a name resolves to (not only literals)', async () => {
    const port = (server.address() as AddressInfo).port;
    await expect(
      strict.fetch(`http://localhost.:${port}/image.png`, target('c'), 'image', ['image']),
    ).rejects.toThrow(MediaFetchError);
  });

  it('follows redirects, checks each hop, and stops loops', async () => {
    expect((await open.fetch(`${base}/to-image`, target('d'), 'image', ['image'])).ext).toBe('png');
    await expect(open.fetch(`${base}/to-ftp`, target('e'), 'image', ['image'])).rejects.toThrow(
      /only http\(s\)/,
    );
    await expect(open.fetch(`${base}/loop`, target('f'), 'image', ['image'])).rejects.toThrow(
      /too many redirects/,
    );
  });

  it('sniffs the type from the bytes, not the extension or Content-Type', async () => {
    await expect(open.fetch(`${base}/image.mp4`, target('g'), 'image', ['video'])).rejects.toThrow(
      /image: the file is image\/png; expected video/,
    );
    expect((await open.fetch(`${base}/image.mp4`, target('h'), 'image', ['image'])).kind).toBe('image');
  });

  it('enforces the size limit from Content-Length and while streaming; answers 404 clearly', async () => {
    await expect(
      open.fetch(`${base}/image.png`, target('i'), 'image', ['image'], undefined, 100),
    ).rejects.toThrow(/limit (is|of) 100 bytes/);
    await expect(
      open.fetch(`${base}/chunked`, target('j'), 'image', ['image'], undefined, PNG.length + 10),
    ).rejects.toThrow(/larger than the limit/);
    await expect(open.fetch(`${base}/missing.png`, target('k'), 'image', ['image'])).rejects.toThrow(
      /HTTP 404/,
    );
  });

  it('removes a partly written file when the download fails on its way', async () => {
    await expect(
      open.fetch(`${base}/chunked`, target('l'), 'image', ['image'], undefined, PNG.length + 10),
    ).rejects.toThrow(/larger than the limit/);
    expect(existsSync(target('l'))).toBe(false);
  });

  it('names the limit when a host answers late, stalls in the middle of a file or takes too long', async () => {
    const quick = new MediaFetcher({ allowPrivate: true, headersTimeoutMs: 500, totalTimeoutMs: 1200 });
    try {
      await expect(quick.fetchBytes(`${base}/late`, 'image_url', ['image'])).rejects.toThrow(
        /image_url: could not fetch 127\.0\.0\.1:\d+: the server did not answer within the limit of 0\.5 s/,
      );
      await expect(quick.fetchBytes(`${base}/stall`, 'image_url', ['image'])).rejects.toThrow(
        /image_url: the download failed: the server sent nothing for 0\.5 s \(the limit\)/,
      );
      await expect(quick.fetchBytes(`${base}/trickle`, 'image_url', ['image'])).rejects.toThrow(
        /image_url: the download failed: the download took longer than the limit of 1\.2 s/,
      );
    } finally {
      await quick.close();
    }
  });

  it('fetchBytes keeps the download in memory with the same checks', async () => {
    const got = await open.fetchBytes(`${base}/to-image`, 'image_url', ['image']);
    expect(got).toMatchObject({ mime: 'image/png', ext: 'png', kind: 'image', size: PNG.length });
    expect(got.bytes.equals(PNG)).toBe(true);
    await expect(strict.fetchBytes(`${base}/image.png`, 'image_url', ['image'])).rejects.toThrow(
      /image_url: .*not a public address/,
    );
    await expect(open.fetchBytes(`${base}/image.mp4`, 'image_url', ['video'])).rejects.toThrow(
      /image_url: the file is image\/png; expected video/,
    );
    await expect(
      open.fetchBytes(`${base}/chunked`, 'image_url', ['image'], undefined, PNG.length + 10),
    ).rejects.toThrow(/image_url: the file is larger than the limit/);
    await expect(open.fetchBytes(`${base}/missing.png`, 'image_url', ['image'])).rejects.toThrow(
      /image_url: the URL answered HTTP 404/,
    );
  });
});
