/**
 * MIME type of a media file from its extension: the formats the spec names (4.2 "Input media rules")
 * and the ones the engines write. Shared by the server (Content-Type of stored files) and the MCP
 * server (mime type of a resource_link), so the two never disagree.
 */
export const MIME_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

/** The MIME type for a file extension (with or without the dot, any case); undefined when unknown. */
export function mimeTypeForExtension(extension: string): string | undefined {
  const ext = extension.replace(/^\./, '').toLowerCase();
  return Object.prototype.hasOwnProperty.call(MIME_TYPE_BY_EXTENSION, ext)
    ? MIME_TYPE_BY_EXTENSION[ext]
    : undefined;
}
