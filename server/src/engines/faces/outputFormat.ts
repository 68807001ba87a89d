/** Which still-image format a swap writes: the target's own (spec 4.5 keeps the target's format). */
export interface StillFormat {
  format: 'png' | 'jpeg' | 'webp';
  mime: string;
  ext: string;
}

export function stillFormatFor(mime: string): StillFormat | undefined {
  switch (mime) {
    case 'image/png':
      return { format: 'png', mime, ext: 'png' };
    case 'image/jpeg':
    case 'image/jpg':
      return { format: 'jpeg', mime: 'image/jpeg', ext: 'jpeg' };
    case 'image/webp':
      return { format: 'webp', mime, ext: 'webp' };
    default:
      return undefined;
  }
}
