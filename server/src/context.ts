/** What the API and the worker share within one process: config, pool, catalog, storage, fetcher. */
import type { Catalog } from './catalog/catalog.js';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { MediaFetcher } from './media/fetch.js';
import type { UrlSigner } from './storage/signedUrl.js';
import type { Storage } from './storage/storage.js';
import type { Logger } from './log.js';

export interface AppContext {
  config: Config;
  pool: Pool;
  catalog: Catalog;
  storage: Storage;
  signer: UrlSigner;
  fetcher: MediaFetcher;
  /** Base of output URLs (MEDIAGEN_PUBLIC_URL or http://127.0.0.1:PORT). */
  publicUrl: string;
  log: Logger;
}
