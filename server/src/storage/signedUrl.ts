/**
 * Output URLs: `<public url>/files/<key>?expires=<unix seconds>&signature=<hex>` where the signature
 * is HMAC-SHA256(secret, "<key>\n<expires>"). A tampered key, expiry or signature, or an expired
 * URL, is refused by GET /files. Expiry: 7 days after the generation (spec 2.1, 8).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { OUTPUT_URL_VALIDITY_SECONDS } from '@mediagen/core';

export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  private signature(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('hex');
  }

  /** Signed URL valid until `createdAt` + 7 days. */
  sign(key: string, createdAt: Date): { url: string; expiresAt: Date } {
    const expires = Math.floor(createdAt.getTime() / 1000) + OUTPUT_URL_VALIDITY_SECONDS;
    const path = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${this.publicUrl}/files/${path}?expires=${expires}&signature=${this.signature(key, expires)}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** 'ok', 'invalid' (tampered) or 'expired'. */
  verify(
    key: string,
    expires: string | undefined,
    signature: string | undefined,
    now = Date.now(),
  ): 'ok' | 'invalid' | 'expired' {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
      return 'invalid';
    const expected = Buffer.from(this.signature(key, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    if (Number(expires) * 1000 <= now) return 'expired';
    return 'ok';
  }

  /**
   * The storage key of one of our own signed, unexpired URLs (face crops from detect), else null.
   * The host is not compared: a valid HMAC proves the URL was issued by a server with our secret,
   * whatever public URL it was issued under.
   */
  keyOfOwnUrl(url: string): string | null {
    try {
      const u = new URL(url);
      const at = u.pathname.indexOf('/files/');
      if (at < 0) return null;
      const key = u.pathname
        .slice(at + '/files/'.length)
        .split('/')
        .map(decodeURIComponent)
        .join('/');
      const state = this.verify(
        key,
        u.searchParams.get('expires') ?? undefined,
        u.searchParams.get('signature') ?? undefined,
      );
      return state === 'ok' ? key : null;
    } catch {
      return null;
    }
  }
}
