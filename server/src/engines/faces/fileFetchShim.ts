/**
 * @vladmandic/human loads its models with `fetch(modelBasePath + name)`. Node's fetch (undici) does not
 * read file: URLs, so this wraps the global fetch once: file: URLs are answered from disk, everything
 * else goes to the original fetch untouched. Nothing is ever fetched from the network for faces.
 */
import { readFile } from 'node:fs/promises';

let installed = false;

export function installFileFetchShim(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file:')) return original(input, init);
    try {
      const body = await readFile(new URL(url));
      const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      return new Response(body, { status: 200, headers: { 'content-type': type } });
    } catch {
      return new Response(null, { status: 404, statusText: `not found: ${url}` });
    }
  };
}
