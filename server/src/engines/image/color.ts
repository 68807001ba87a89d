/** Small colour helpers for the painters: hex <-> rgb, mixing and shading. */
export type Rgb = [number, number, number];

export function toRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex([r, g, b]: Rgb): string {
  const c = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${c(r)}${c(g)}${c(b)}`;
}

/** a*(1-t) + b*t. */
export function mix(a: string, b: string, t: number): string {
  const x = toRgb(a);
  const y = toRgb(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

/** Multiplies brightness by f (0 black .. 1 unchanged .. >1 lighter). */
export function shade(hex: string, f: number): string {
  const [r, g, b] = toRgb(hex);
  return toHex([r * f, g * f, b * f]);
}

/** Rec. 601 luma, 0..255. */
export function luma(hex: string): number {
  const [r, g, b] = toRgb(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}
