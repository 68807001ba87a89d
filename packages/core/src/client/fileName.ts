/**
 * The file name of a download: Content-Disposition's `filename*` (RFC 5987, UTF-8) or `filename`, else
 * the last segment of the URL path, else `download`. Directory parts are stripped, so the name is always
 * safe to join to a folder.
 */
export function fileNameFromResponse(contentDisposition: string | undefined, url: URL): string {
  const fromHeader = contentDisposition ? fileNameFromContentDisposition(contentDisposition) : undefined;
  const fromUrl = lastPathSegment(url);
  return safeName(fromHeader) ?? safeName(fromUrl) ?? 'download';
}

/** The filename of a Content-Disposition header value, preferring `filename*` over `filename`. */
export function fileNameFromContentDisposition(value: string): string | undefined {
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(value);
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(extended[1]!.trim().replace(/^"(.*)"$/, '$1'));
    if (match) {
      try {
        const charset = match[1]!.toLowerCase();
        const encoded = match[2]!;
        if (charset === 'utf-8' || charset === '') return decodeURIComponent(encoded);
        // ISO-8859-1: percent-escapes are single bytes.
        return encoded.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        );
      } catch {
        // fall through to the plain filename
      }
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(value);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(value);
  return token ? token[1] : undefined;
}

function lastPathSegment(url: URL): string | undefined {
  const segment = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .pop();
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function safeName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const last = name.split(/[/\\]/).pop()!;
  // Control characters (C0 and DEL) never belong in a file name.
  const base = [...last]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  return base === '' || base === '.' || base === '..' ? undefined : base;
}
