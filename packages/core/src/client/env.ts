/**
 * The only place the client reads the environment (MEDIAGEN_API_KEY, MEDIAGEN_BASE_URL fallbacks).
 * A bundle for a sandbox without `process` (or that must not read it, like an n8n node) can replace this
 * module, or pass `useEnv: false` to the client.
 */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}
