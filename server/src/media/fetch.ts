/**
 * Downloads input media for jobs, detect and moderation (spec 4.2 "Input media rules", 4.6 rule 7):
 * - only http(s); private, loopback, link-local and other non-public addresses are refused (checked on
 *   the resolved IP at connect time, so DNS tricks do not help) unless MEDIAGEN_ALLOW_PRIVATE_URLS;
 * - redirects are followed by hand (at most 5) and every hop is checked again;
 * - a timeout for the headers and for the whole body, and a size limit enforced while streaming;
 * - the type is sniffed from the bytes (file-type), never trusted from the extension or header.
 * Our own signed /files URLs (face crops from detect) are read from storage directly.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import ipaddr from 'ipaddr.js';
import { Agent, request, type Dispatcher } from 'undici';
import type { Storage } from '../storage/storage.js';
import type { UrlSigner } from '../storage/signedUrl.js';

export type MediaKind = 'image' | 'video' | 'audio';

/** What each kind may be (spec 4.2): by sniffed extension. */
const ALLOWED: Record<MediaKind, Record<string, string>> = {
  image: { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' },
  video: {
    mp4: 'video/mp4',
    webm: 'video/webm',
    mkv: 'video/x-matroska',
    mov: 'video/mp4',
    m4v: 'video/mp4',
  },
  audio: { mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4' },
};

export const MAX_BYTES: Record<MediaKind, number> = {
  image: 50 * 1024 * 1024,
  video: 200 * 1024 * 1024,
  audio: 100 * 1024 * 1024,
};

/** A download kept in memory (fetchBytes). */
export interface FetchedBytes {
  bytes: Buffer;
  mime: string;
  ext: string;
  kind: MediaKind;
  size: number;
}

export interface FetchedMedia {
  path: string;
  mime: string;
  ext: string;
  kind: MediaKind;
  size: number;
}

/** A download that failed for a reason the client can act on; the message names the URL's field. */
export class MediaFetchError extends Error {
  override name = 'MediaFetchError';
}

export interface MediaFetcherOptions {
  allowPrivate: boolean;
  storage?: Storage;
  signer?: UrlSigner;
  headersTimeoutMs?: number;
  totalTimeoutMs?: number;
}

function isPublicAddress(address: string): boolean {
  try {
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      ip = (ip as ipaddr.IPv6).toIPv4Address();
    }
    return ip.range() === 'unicast';
  } catch {
    return false;
  }
}

/** Longest wait for a TCP (and TLS) connection to a media host. */
const CONNECT_TIMEOUT_MS = 10_000;

function describeHost(host: string): string {
  return `${host} is not a public address (private, loopback and link-local addresses are refused)`;
}

export class MediaFetcher {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: MediaFetcherOptions) {
    const allowPrivate = options.allowPrivate;
    this.dispatcher = new Agent({
      headersTimeout: this.idleTimeoutMs,
      bodyTimeout: this.idleTimeoutMs,
      connect: {
        timeout: CONNECT_TIMEOUT_MS,
        // Checked on the address we actually connect to.
        lookup: (hostname, opts, callback) => {
          dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
            if (err) return callback(err, '', 4);
            const list = addresses as LookupAddress[];
            const allowed = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
            if (allowed.length === 0) {
              return callback(new MediaFetchError(describeHost(hostname)), '', 4);
            }
            if ((opts as { all?: boolean }).all) {
              (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
            } else {
              callback(null, allowed[0]!.address, allowed[0]!.family);
            }
          });
        },
      },
    });
  }

  private checkUrl(raw: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new MediaFetchError(`${field}: "${raw.slice(0, 200)}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new MediaFetchError(`${field}: only http(s) URLs are accepted`);
    }
    if (url.username || url.password) {
      throw new MediaFetchError(`${field}: URLs with credentials are not accepted (the URL must be public)`);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate) {
      if (isIP(host) && !isPublicAddress(host)) throw new MediaFetchError(`${field}: ${describeHost(host)}`);
      if (host === 'localhost' || host.endsWith('.localhost')) {
        throw new MediaFetchError(`${field}: ${describeHost(host)}`);
      }
    }
    return url;
  }

  /**
   * Downloads `url` into `destPath` and checks that it is one of `kinds` (the first is the expected
   * one, used for the size limit). Throws MediaFetchError with a message naming `field`.
   */
  async fetch(
    url: string,
    destPath: string,
    field: string,
    kinds: readonly MediaKind[],
    signal?: AbortSignal,
    maxBytes = Math.max(...kinds.map((k) => MAX_BYTES[k])),
  ): Promise<FetchedMedia> {
    const own = this.options.signer?.keyOfOwnUrl(url);
    const obj = own && this.options.storage ? await this.options.storage.open(own) : null;
    let size: number;
    if (obj) {
      // One of our own signed URLs whose file is in our storage: no HTTP round trip to ourselves.
      await pipeline(obj.stream, createWriteStream(destPath));
      size = obj.size;
    } else {
      try {
        size = await this.download(url, field, maxBytes, signal, (source) =>
          pipeline(source, createWriteStream(destPath)),
        );
      } catch (err) {
        await rm(destPath, { force: true });
        throw err;
      }
    }
    const type = await fileTypeFromFile(destPath).catch(() => undefined);
    try {
      return { path: destPath, size, ...this.accept(type, kinds, field) };
    } catch (err) {
      await rm(destPath, { force: true });
      throw err;
    }
  }

  /**
   * Like fetch(), but keeps the bytes in memory instead of writing a file: for a picture that is
   * decoded at once (moderation), where a temporary file only adds a write, a read and a delete.
   */
  async fetchBytes(
    url: string,
    field: string,
    kinds: readonly MediaKind[],
    signal?: AbortSignal,
    maxBytes = Math.max(...kinds.map((k) => MAX_BYTES[k])),
  ): Promise<FetchedBytes> {
    const chunks: Buffer[] = [];
    const collect = async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    };
    const own = this.options.signer?.keyOfOwnUrl(url);
    const obj = own && this.options.storage ? await this.options.storage.open(own) : null;
    if (obj) await collect(obj.stream as AsyncIterable<Buffer>);
    else await this.download(url, field, maxBytes, signal, collect);
    const bytes = Buffer.concat(chunks);
    const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
    return { bytes, size: bytes.length, ...this.accept(type, kinds, field) };
  }

  /** The kind, MIME type and extension of sniffed bytes, or a MediaFetchError naming what was expected. */
  private accept(
    type: { ext: string; mime: string } | undefined,
    kinds: readonly MediaKind[],
    field: string,
  ): { mime: string; ext: string; kind: MediaKind } {
    for (const kind of kinds) {
      const mime = type ? ALLOWED[kind][type.ext] : undefined;
      if (type && mime) return { mime, ext: type.ext === 'jpg' ? 'jpeg' : type.ext, kind };
    }
    const wanted = kinds
      .map(
        (k) =>
          `${k} (${Object.keys(ALLOWED[k])
            .filter((e) => e !== 'mov' && e !== 'm4v')
            .join(', ')})`,
      )
      .join(' or ');
    throw new MediaFetchError(
      `${field}: the file is ${type ? `${type.mime}` : 'not a recognised media file'}; expected ${wanted}`,
    );
  }

  /** Streams the body of `raw` (redirects followed, limits enforced) into `sink`; answers its size. */
  private async download(
    raw: string,
    field: string,
    maxBytes: number,
    outer: AbortSignal | undefined,
    sink: (source: AsyncIterable<Buffer>) => Promise<unknown>,
  ): Promise<number> {
    const timeout = AbortSignal.timeout(this.totalTimeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    let current = raw;
    for (let hop = 0; hop <= 5; hop++) {
      const url = this.checkUrl(current, field);
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: 'GET',
          dispatcher: this.dispatcher,
          signal,
          headers: { 'user-agent': 'mediagen-server/0.1 (+media fetch)', accept: '*/*' },
        });
      } catch (err) {
        if (outer?.aborted) throw err;
        if (err instanceof MediaFetchError) throw new MediaFetchError(`${field}: ${err.message}`);
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof MediaFetchError) throw new MediaFetchError(`${field}: ${cause.message}`);
        throw new MediaFetchError(`${field}: could not fetch ${url.host}: ${this.why(err, timeout)}`);
      }
      if ([301, 302, 303, 307, 308].includes(res.statusCode)) {
        await res.body.dump();
        const location = res.headers.location;
        if (typeof location !== 'string') throw new MediaFetchError(`${field}: redirect without a Location`);
        current = new URL(location, url).href;
        continue;
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new MediaFetchError(
          `${field}: the URL answered HTTP ${res.statusCode} (it must be publicly readable)`,
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body.dump();
        throw new MediaFetchError(`${field}: the file is ${declared} bytes; the limit is ${maxBytes} bytes`);
      }
      let size = 0;
      const limiter = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes)
            throw new MediaFetchError(`${field}: the file is larger than the limit of ${maxBytes} bytes`);
          yield chunk;
        }
      };
      try {
        await sink(limiter(res.body as Readable));
      } catch (err) {
        if (err instanceof MediaFetchError) throw err;
        if (outer?.aborted) throw err;
        throw new MediaFetchError(`${field}: the download failed: ${this.why(err, timeout)}`);
      }
      return size;
    }
    throw new MediaFetchError(`${field}: too many redirects (at most 5)`);
  }

  /** Why a download failed, in the client's words: a timeout names its limit (undici's own words do not). */
  private why(err: unknown, total: AbortSignal): string {
    const seconds = (ms: number) => `${ms / 1000} s`;
    if (total.aborted) return `the download took longer than the limit of ${seconds(this.totalTimeoutMs)}`;
    switch ((err as { code?: string }).code) {
      case 'UND_ERR_HEADERS_TIMEOUT':
        return `the server did not answer within the limit of ${seconds(this.idleTimeoutMs)}`;
      case 'UND_ERR_BODY_TIMEOUT':
        return `the server sent nothing for ${seconds(this.idleTimeoutMs)} (the limit) in the middle of the file`;
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `no connection within the limit of ${seconds(CONNECT_TIMEOUT_MS)}`;
      default:
        return (err as Error).message || 'connection failed';
    }
  }

  private get idleTimeoutMs(): number {
    return this.options.headersTimeoutMs ?? 15_000;
  }

  private get totalTimeoutMs(): number {
    return this.options.totalTimeoutMs ?? 120_000;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
