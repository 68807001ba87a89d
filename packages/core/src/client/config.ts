/** Environment variables the client falls back to when no argument is given. */
export const ENV_API_KEY = 'MEDIAGEN_API_KEY';
export const ENV_BASE_URL = 'MEDIAGEN_BASE_URL';

export { readEnv } from './env.js';

/**
 * The base URL without a trailing slash. It must be absolute http(s) and include the version prefix
 * (e.g. `https://api.example.com/api/v3`); a missing one is a clear error, not a request to `undefined`.
 */
export function normalizeBaseUrl(baseUrl: string | undefined): string {
  if (baseUrl === undefined || baseUrl.trim() === '') {
    throw new TypeError(
      `mediagen: no baseUrl: pass { baseUrl } or set ${ENV_BASE_URL} (e.g. https://host/api/v3)`,
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new TypeError(`mediagen: baseUrl "${baseUrl}" is not an absolute URL (e.g. https://host/api/v3)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`mediagen: baseUrl "${baseUrl}" must be http or https`);
  }
  return url.toString().replace(/\/+$/, '');
}
