/**
 * The scene painter: turns a Scene (read from the prompt) into SVG vector art, which sharp rasterises.
 * A procedural stand-in for a text-to-image model, not generative AI: sky, light, land, water, objects
 * and palette all follow the prompt's words; the seed varies the shapes.
 *
 * The picture is drawn in four layers so that the video engines can move them separately (parallax):
 * sky (gradient, sun or moon, stars, clouds), far (mountains, hills or skyline), near (ground, water,
 * trees, houses, boats, birds) and weather (rain, snow, fog, lightning).
 */
import { mix, shade } from './color.js';
import type { Scene } from './sceneFromPrompt.js';
import { seededRandom, type Random } from './seededRandom.js';

export type Layer = 'sky' | 'far' | 'near' | 'weather';
export const ALL_LAYERS: readonly Layer[] = ['sky', 'far', 'near', 'weather'];

export interface PaintOptions {
  width: number;
  height: number;
  layers?: readonly Layer[];
}

interface Palette {
  skyTop: string;
  skyMid: string;
  skyHorizon: string;
  light: number;
  tint: string;
  tintAmount: number;
  cloud: string;
  ground: string;
  groundNear: string;
  far: string;
  water: string;
  accent: string;
}

const SKIES: Record<Scene['time'], [string, string, string]> = {
  day: ['#2f6fc9', '#6fa8e0', '#cfe8f7'],
  dawn: ['#34437a', '#c98aa0', '#ffd3a1'],
  sunset: ['#2a1d4d', '#b8455a', '#f6a24a'],
  night: ['#03050c', '#0a1226', '#1d2b4f'],
};

function palette(scene: Scene): Palette {
  let [skyTop, skyMid, skyHorizon] = SKIES[scene.time];
  const overcast = { clear: 0, cloudy: 0.35, rain: 0.55, snow: 0.45, fog: 0.6, storm: 0.7 }[scene.weather];
  const gray = scene.time === 'night' ? '#15181f' : scene.weather === 'storm' ? '#4a505a' : '#9aa3ad';
  skyTop = mix(skyTop, gray, overcast);
  skyMid = mix(skyMid, gray, overcast);
  skyHorizon = mix(skyHorizon, gray, overcast);
  if (scene.colors.sky) {
    skyTop = mix(skyTop, scene.colors.sky, 0.35);
    skyMid = mix(skyMid, scene.colors.sky, 0.6);
    skyHorizon = mix(skyHorizon, scene.colors.sky, 0.35);
  }

  const light = { day: 1, dawn: 0.85, sunset: 0.7, night: 0.3 }[scene.time] * (1 - overcast * 0.35);
  const tint = { day: '#fff6e0', dawn: '#ff9a8a', sunset: '#ff7a30', night: '#1a2a70' }[scene.time];
  const tintAmount = { day: 0.05, dawn: 0.18, sunset: 0.25, night: 0.4 }[scene.time];

  const ground = {
    spring: '#6cbf4a',
    summer: '#3f8f3a',
    autumn: '#b8702a',
    winter: '#e8eef2',
  }[scene.season];
  const sand = '#e0b872';
  const base =
    scene.land === 'desert' || scene.land === 'beach' ? sand : scene.land === 'city' ? '#5a5d63' : ground;
  const accent = scene.colors.accent ?? '#c0392b';
  const landColor = scene.colors.land && scene.land !== 'city' ? mix(base, scene.colors.land, 0.6) : base;
  const lit = (c: string, extra = 1) => mix(shade(c, light * extra), tint, tintAmount);
  return {
    skyTop,
    skyMid,
    skyHorizon,
    light,
    tint,
    tintAmount,
    cloud: lit(scene.weather === 'storm' ? '#6b7079' : '#ffffff', scene.time === 'night' ? 0.6 : 1),
    ground: lit(landColor),
    groundNear: lit(landColor, 0.75),
    far: lit(
      scene.season === 'winter' ? '#c9d3de' : scene.backdrop === 'skyline' ? '#4a5060' : '#5d6f86',
      0.95,
    ),
    water: lit(mix(scene.colors.water ?? '#1f5f8f', skyHorizon, 0.35)),
    accent: lit(accent),
  };
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

function skyLayer(scene: Scene, pal: Palette, w: number, h: number, horizon: number): string {
  const r = seededRandom(scene.seed, 'sky');
  const out: string[] = [];
  out.push(
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
      `<stop offset="0" stop-color="${pal.skyTop}"/><stop offset="0.6" stop-color="${pal.skyMid}"/>` +
      `<stop offset="1" stop-color="${pal.skyHorizon}"/></linearGradient>` +
      `<radialGradient id="glow"><stop offset="0" stop-color="#fff7d6" stop-opacity="0.85"/>` +
      `<stop offset="1" stop-color="#fff7d6" stop-opacity="0"/></radialGradient></defs>`,
  );
  out.push(`<rect width="${w}" height="${h}" fill="url(#sky)"/>`);
  const s = Math.min(w, h);

  if (scene.objects.has('stars')) {
    const n = Math.min(500, Math.round((w * horizon) / 4000));
    for (let i = 0; i < n; i++) {
      out.push(
        `<circle cx="${f(r.range(0, w))}" cy="${f(r.range(0, horizon * 0.9))}" r="${f(r.range(0.4, 1.6) * (s / 1024))}" fill="#ffffff" opacity="${f(r.range(0.3, 1))}"/>`,
      );
    }
  }
  if (scene.objects.has('aurora')) {
    for (let i = 0; i < 3; i++) {
      const y = horizon * r.range(0.2, 0.45);
      let d = `M0 ${f(y)}`;
      for (let x = 0; x <= w; x += w / 6)
        d += ` Q${f(x + w / 12)} ${f(y + r.range(-0.15, 0.15) * horizon)} ${f(x + w / 6)} ${f(y)}`;
      out.push(
        `<path d="${d}" stroke="${r.pick(['#3dffa0', '#5cf2c8', '#9b6bff'])}" stroke-width="${f(s * r.range(0.04, 0.09))}" fill="none" opacity="0.35" stroke-linecap="round"/>`,
      );
    }
  }
  if (scene.objects.has('sun')) {
    const pos = { day: 0.22, dawn: 0.8, sunset: 0.85, night: 0.5 }[scene.time];
    const cx = w * r.range(0.25, 0.75);
    const cy = horizon * pos;
    const rad = s * (scene.time === 'day' ? 0.06 : 0.09);
    const color = { day: '#fff6c8', dawn: '#ffd27a', sunset: '#ff8a3a', night: '#ffffff' }[scene.time];
    out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(rad * 4)}" fill="url(#glow)" opacity="0.8"/>`);
    out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(rad)}" fill="${color}"/>`);
  }
  if (scene.objects.has('moon')) {
    const cx = w * r.range(0.2, 0.8);
    const cy = horizon * r.range(0.2, 0.4);
    const rad = s * 0.05;
    out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(rad * 3.5)}" fill="url(#glow)" opacity="0.25"/>`);
    out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(rad)}" fill="#f4f1de"/>`);
    out.push(
      `<circle cx="${f(cx + rad * 0.45)}" cy="${f(cy - rad * 0.2)}" r="${f(rad * 0.9)}" fill="${pal.skyTop}" opacity="0.9"/>`,
    );
  }
  if (scene.objects.has('rainbow')) {
    const cx = w * r.range(0.3, 0.7);
    const colors = ['#e53935', '#fb8c00', '#fdd835', '#43a047', '#1e88e5', '#5e35b1'];
    colors.forEach((c, i) => {
      const rad = horizon * 0.8 - i * s * 0.012;
      out.push(
        `<path d="M${f(cx - rad)} ${f(horizon)} A${f(rad)} ${f(rad)} 0 0 1 ${f(cx + rad)} ${f(horizon)}" stroke="${c}" stroke-width="${f(s * 0.012)}" fill="none" opacity="0.45"/>`,
      );
    });
  }
  const clouds = { clear: 3, cloudy: 9, rain: 12, snow: 9, fog: 5, storm: 14 }[scene.weather];
  const count = Math.round(clouds * (w / Math.max(w, h)) * (0.6 + scene.drama));
  for (let i = 0; i < count; i++)
    out.push(cloud(r, pal, w * r.range(-0.05, 1.05), horizon * r.range(0.08, 0.6), s));
  return out.join('');
}

function cloud(r: Random, pal: Palette, cx: number, cy: number, s: number): string {
  const size = s * r.range(0.05, 0.12);
  const parts: string[] = [];
  const n = r.int(3, 6);
  for (let i = 0; i < n; i++) {
    parts.push(
      `<ellipse cx="${f(cx + (i - n / 2) * size * 0.7)}" cy="${f(cy + r.range(-0.3, 0.3) * size)}" rx="${f(size * r.range(0.7, 1.2))}" ry="${f(size * r.range(0.4, 0.7))}"/>`,
    );
  }
  return `<g fill="${pal.cloud}" opacity="${f(r.range(0.55, 0.9))}">${parts.join('')}</g>`;
}

/** A ridge line from left to right by midpoint displacement. */
function ridge(r: Random, w: number, base: number, amplitude: number, roughness: number): string {
  let pts: number[] = [base - r.range(0, amplitude), base - r.range(0, amplitude)];
  let spread = amplitude;
  while (pts.length < 65) {
    const next: number[] = [];
    for (let i = 0; i < pts.length - 1; i++) {
      const a = pts[i] ?? base;
      const b = pts[i + 1] ?? base;
      next.push(a, (a + b) / 2 + r.range(-spread, spread));
    }
    next.push(pts[pts.length - 1] ?? base);
    pts = next;
    spread *= roughness;
  }
  return pts.map((y, i) => `${f((i / (pts.length - 1)) * w)},${f(y)}`).join(' ');
}

function farLayer(scene: Scene, pal: Palette, w: number, h: number, horizon: number): string {
  const r = seededRandom(scene.seed, 'far');
  const out: string[] = [];
  const s = Math.min(w, h);
  if (scene.backdrop === 'mountains') {
    for (let k = 0; k < 2; k++) {
      const color = k === 0 ? mix(pal.far, pal.skyHorizon, 0.45) : pal.far;
      const pts = ridge(
        r,
        w,
        horizon - h * (k === 0 ? 0.05 : 0),
        h * (0.32 - k * 0.1) * (0.7 + scene.drama * 0.6),
        0.55,
      );
      out.push(
        `<polygon points="0,${f(horizon + h * 0.1)} ${pts} ${w},${f(horizon + h * 0.1)}" fill="${color}"/>`,
      );
    }
  } else if (scene.backdrop === 'hills') {
    for (let k = 0; k < 2; k++) {
      const color = mix(pal.ground, pal.skyHorizon, 0.5 - k * 0.25);
      const y = horizon - h * (0.08 - k * 0.04);
      let d = `M0 ${f(horizon + h * 0.1)} L0 ${f(y)}`;
      const n = r.int(2, 4);
      for (let i = 0; i < n; i++) {
        const x0 = (i / n) * w;
        const x1 = ((i + 1) / n) * w;
        d += ` Q${f((x0 + x1) / 2)} ${f(y - h * r.range(0.04, 0.12))} ${f(x1)} ${f(y)}`;
      }
      out.push(`<path d="${d} L${w} ${f(horizon + h * 0.1)} Z" fill="${color}"/>`);
    }
  } else if (scene.backdrop === 'skyline') {
    let x = -r.range(0, s * 0.05);
    while (x < w) {
      const bw = s * r.range(0.04, 0.1);
      const bh = h * r.range(0.08, 0.35);
      const color = mix(pal.far, pal.skyHorizon, r.range(0.1, 0.4));
      out.push(
        `<rect x="${f(x)}" y="${f(horizon - bh)}" width="${f(bw)}" height="${f(bh + h * 0.1)}" fill="${color}"/>`,
      );
      if (scene.time === 'night' || scene.time === 'sunset') {
        const win = s * 0.008;
        for (let wy = horizon - bh + win * 2; wy < horizon - win * 2; wy += win * 3) {
          for (let wx = x + win; wx < x + bw - win * 1.5; wx += win * 2.5) {
            if (r.chance(0.35))
              out.push(
                `<rect x="${f(wx)}" y="${f(wy)}" width="${f(win)}" height="${f(win * 1.4)}" fill="#ffd77a" opacity="0.85"/>`,
              );
          }
        }
      }
      x += bw + s * r.range(0, 0.015);
    }
  }
  return out.join('');
}

function tree(r: Random, pal: Palette, x: number, y: number, size: number, season: Scene['season']): string {
  const trunk = shade('#5a3b22', pal.light);
  const leaves = {
    spring: '#4caf50',
    summer: '#2e7d32',
    autumn: r.pick(['#d35400', '#e67e22', '#c0392b', '#f1c40f']),
    winter: '#2f4f3f',
  }[season];
  const color = mix(shade(leaves, pal.light * r.range(0.8, 1.1)), pal.tint, pal.tintAmount);
  if (r.chance(0.5) || season === 'winter') {
    const snow =
      season === 'winter'
        ? `<polygon points="${f(x)},${f(y - size * 1.6)} ${f(x - size * 0.2)},${f(y - size * 1.2)} ${f(x + size * 0.2)},${f(y - size * 1.2)}" fill="#f4f7fa"/>`
        : '';
    return (
      `<rect x="${f(x - size * 0.06)}" y="${f(y - size * 0.3)}" width="${f(size * 0.12)}" height="${f(size * 0.3)}" fill="${trunk}"/>` +
      `<polygon points="${f(x)},${f(y - size * 1.6)} ${f(x - size * 0.45)},${f(y - size * 0.25)} ${f(x + size * 0.45)},${f(y - size * 0.25)}" fill="${color}"/>` +
      snow
    );
  }
  return (
    `<rect x="${f(x - size * 0.07)}" y="${f(y - size * 0.6)}" width="${f(size * 0.14)}" height="${f(size * 0.6)}" fill="${trunk}"/>` +
    `<circle cx="${f(x)}" cy="${f(y - size * 0.85)}" r="${f(size * 0.45)}" fill="${color}"/>`
  );
}

function house(r: Random, pal: Palette, x: number, y: number, size: number, night: boolean): string {
  const wall = mix(
    shade(r.pick(['#e8d8b8', '#d9c2a0', '#f2eee6', '#c9a27e']), pal.light),
    pal.tint,
    pal.tintAmount,
  );
  const roof = mix(shade(pal.accent, 0.9), '#000000', 0.1);
  const win = night ? '#ffd77a' : shade('#5a7a9a', pal.light);
  return (
    `<rect x="${f(x - size / 2)}" y="${f(y - size * 0.7)}" width="${f(size)}" height="${f(size * 0.7)}" fill="${wall}"/>` +
    `<polygon points="${f(x - size * 0.6)},${f(y - size * 0.7)} ${f(x)},${f(y - size * 1.15)} ${f(x + size * 0.6)},${f(y - size * 0.7)}" fill="${roof}"/>` +
    `<rect x="${f(x - size * 0.3)}" y="${f(y - size * 0.5)}" width="${f(size * 0.2)}" height="${f(size * 0.2)}" fill="${win}"/>` +
    `<rect x="${f(x + size * 0.1)}" y="${f(y - size * 0.45)}" width="${f(size * 0.16)}" height="${f(size * 0.45)}" fill="${shade(wall, 0.55)}"/>`
  );
}

function castle(pal: Palette, x: number, y: number, size: number, night: boolean): string {
  const stone = mix(shade('#9a9488', pal.light), pal.tint, pal.tintAmount);
  const dark = shade(stone, 0.7);
  const parts: string[] = [];
  parts.push(
    `<rect x="${f(x - size)}" y="${f(y - size * 0.8)}" width="${f(size * 2)}" height="${f(size * 0.8)}" fill="${stone}"/>`,
  );
  for (const tx of [-1, 1]) {
    parts.push(
      `<rect x="${f(x + tx * size - size * 0.2)}" y="${f(y - size * 1.4)}" width="${f(size * 0.4)}" height="${f(size * 1.4)}" fill="${dark}"/>`,
    );
    parts.push(
      `<polygon points="${f(x + tx * size - size * 0.28)},${f(y - size * 1.4)} ${f(x + tx * size)},${f(y - size * 1.9)} ${f(x + tx * size + size * 0.28)},${f(y - size * 1.4)}" fill="${pal.accent}"/>`,
    );
  }
  for (let i = 0; i < 6; i++)
    parts.push(
      `<rect x="${f(x - size + (i * size * 2) / 6)}" y="${f(y - size * 0.92)}" width="${f(size * 0.18)}" height="${f(size * 0.13)}" fill="${stone}"/>`,
    );
  parts.push(
    `<path d="M${f(x - size * 0.2)} ${f(y)} L${f(x - size * 0.2)} ${f(y - size * 0.35)} Q${f(x)} ${f(y - size * 0.55)} ${f(x + size * 0.2)} ${f(y - size * 0.35)} L${f(x + size * 0.2)} ${f(y)} Z" fill="${night ? '#ffcf6a' : shade(stone, 0.4)}"/>`,
  );
  return parts.join('');
}

function nearLayer(scene: Scene, pal: Palette, w: number, h: number, horizon: number): string {
  const r = seededRandom(scene.seed, 'near');
  const out: string[] = [];
  const s = Math.min(w, h);
  const night = scene.time === 'night';
  out.push(
    `<defs><linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(pal.water, pal.skyHorizon, 0.4)}"/>` +
      `<stop offset="1" stop-color="${shade(pal.water, 0.6)}"/></linearGradient>` +
      `<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${pal.ground}"/>` +
      `<stop offset="1" stop-color="${pal.groundNear}"/></linearGradient></defs>`,
  );
  let shoreY = h; // where solid ground starts for objects
  if (scene.water) {
    const waterBottom = scene.land === 'ocean' ? h : scene.land === 'beach' ? h * 0.82 : h * 0.85;
    out.push(
      `<rect x="0" y="${f(horizon)}" width="${w}" height="${f(waterBottom - horizon + 2)}" fill="url(#water)"/>`,
    );
    if (scene.objects.has('sun') || scene.objects.has('moon')) {
      const glint = scene.objects.has('moon') ? '#f4f1de' : scene.time === 'sunset' ? '#ffb060' : '#fff4c8';
      for (let i = 0; i < 18; i++) {
        const y = horizon + ((waterBottom - horizon) * (i + 0.5)) / 18;
        const lw = s * r.range(0.02, 0.08) * (1 + i / 10);
        out.push(
          `<rect x="${f(w * 0.5 - lw / 2 + r.range(-1, 1) * s * 0.03)}" y="${f(y)}" width="${f(lw)}" height="${f(s * 0.004 + 0.5)}" fill="${glint}" opacity="0.5"/>`,
        );
      }
    }
    for (let i = 0; i < 40; i++) {
      const y = horizon + (waterBottom - horizon) * r.range(0.05, 1);
      const x = r.range(0, w);
      const lw = s * r.range(0.02, 0.06) * (0.5 + (y - horizon) / (h - horizon));
      out.push(
        `<rect x="${f(x)}" y="${f(y)}" width="${f(lw)}" height="${f(Math.max(1, s * 0.002))}" fill="#ffffff" opacity="0.18"/>`,
      );
    }
    shoreY = waterBottom;
    if (scene.land !== 'ocean') {
      let d = `M0 ${f(h + 1)} L0 ${f(waterBottom)}`;
      for (let i = 0; i < 4; i++)
        d += ` Q${f(((i + 0.5) / 4) * w)} ${f(waterBottom - h * r.range(0, 0.05))} ${f(((i + 1) / 4) * w)} ${f(waterBottom + h * r.range(-0.01, 0.01))}`;
      out.push(`<path d="${d} L${w} ${f(h + 1)} Z" fill="url(#ground)"/>`);
    }
  } else {
    let d = `M0 ${f(h + 1)} L0 ${f(horizon)}`;
    const n = scene.land === 'desert' ? 3 : 5;
    for (let i = 0; i < n; i++)
      d += ` Q${f(((i + 0.5) / n) * w)} ${f(horizon - h * r.range(-0.02, 0.05))} ${f(((i + 1) / n) * w)} ${f(horizon + h * r.range(-0.01, 0.02))}`;
    out.push(`<path d="${d} L${w} ${f(h + 1)} Z" fill="url(#ground)"/>`);
    // A second, nearer fold of land.
    const y2 = horizon + (h - horizon) * 0.45;
    let d2 = `M0 ${f(h + 1)} L0 ${f(y2)}`;
    for (let i = 0; i < 3; i++)
      d2 += ` Q${f(((i + 0.5) / 3) * w)} ${f(y2 - h * r.range(0, 0.08))} ${f(((i + 1) / 3) * w)} ${f(y2 + h * r.range(-0.02, 0.02))}`;
    out.push(`<path d="${d2} L${w} ${f(h + 1)} Z" fill="${pal.groundNear}"/>`);
    shoreY = horizon;
    if (scene.land === 'city') {
      let x = -r.range(0, s * 0.1);
      while (x < w) {
        const bw = s * r.range(0.08, 0.16);
        const bh = h * r.range(0.15, 0.45);
        const base = horizon + h * 0.04;
        const color = shade(mix('#3c4250', pal.accent, 0.15), Math.max(0.35, pal.light) * r.range(0.8, 1.2));
        out.push(
          `<rect x="${f(x)}" y="${f(base - bh)}" width="${f(bw)}" height="${f(bh + 2)}" fill="${color}"/>`,
        );
        const win = s * 0.012;
        for (let wy = base - bh + win * 2; wy < base - win * 2; wy += win * 2.6) {
          for (let wx = x + win; wx < x + bw - win * 1.5; wx += win * 2.2) {
            const on = night ? r.chance(0.55) : r.chance(0.15);
            out.push(
              `<rect x="${f(wx)}" y="${f(wy)}" width="${f(win)}" height="${f(win * 1.4)}" fill="${on ? '#ffd77a' : shade('#9fb4c8', pal.light)}" opacity="${on ? 0.95 : 0.6}"/>`,
            );
          }
        }
        x += bw + s * r.range(0.005, 0.03);
      }
    }
  }

  const groundTop =
    scene.land === 'ocean' ? horizon + (h - horizon) * 0.55 : scene.water ? shoreY : horizon + h * 0.03;
  if (scene.objects.has('lighthouse')) {
    const x = w * r.range(0.7, 0.88);
    const size = s * 0.06;
    out.push(
      `<polygon points="${f(x - size * 1.5)},${f(groundTop + size * 0.3)} ${f(x + size * 1.5)},${f(groundTop + size * 0.3)} ${f(x + size)},${f(groundTop - size * 0.2)} ${f(x - size)},${f(groundTop - size * 0.2)}" fill="${shade('#5b5148', pal.light)}"/>`,
    );
    out.push(
      `<polygon points="${f(x - size * 0.45)},${f(groundTop - size * 0.2)} ${f(x + size * 0.45)},${f(groundTop - size * 0.2)} ${f(x + size * 0.3)},${f(groundTop - size * 3)} ${f(x - size * 0.3)},${f(groundTop - size * 3)}" fill="${shade('#f2f2f2', pal.light)}"/>`,
    );
    out.push(
      `<rect x="${f(x - size * 0.4)}" y="${f(groundTop - size * 1.8)}" width="${f(size * 0.8)}" height="${f(size * 0.4)}" fill="${pal.accent}"/>`,
    );
    out.push(`<circle cx="${f(x)}" cy="${f(groundTop - size * 3.2)}" r="${f(size * 0.3)}" fill="#ffe27a"/>`);
  }
  if (scene.objects.has('castle'))
    out.push(castle(pal, w * r.range(0.35, 0.65), groundTop + h * 0.03, s * 0.09, night));
  if (scene.objects.has('houses')) {
    const n = r.int(2, 4);
    for (let i = 0; i < n; i++)
      out.push(
        house(
          r,
          pal,
          w * r.range(0.08, 0.92),
          groundTop + h * r.range(0.04, 0.12),
          s * r.range(0.05, 0.09),
          night,
        ),
      );
  }
  if (scene.objects.has('trees')) {
    const n = scene.land === 'forest' ? 26 : 9;
    const trees: Array<[number, number, number]> = [];
    for (let i = 0; i < n; i++) {
      const y = groundTop + (h - groundTop) * r.range(0.05, 0.9);
      trees.push([
        w * r.range(-0.02, 1.02),
        y,
        s * 0.08 * (0.5 + (y - groundTop) / Math.max(1, h - groundTop)),
      ]);
    }
    trees.sort((a, b) => a[1] - b[1]);
    for (const [x, y, size] of trees) out.push(tree(r, pal, x, y, size, scene.season));
  }
  if (scene.objects.has('flowers')) {
    for (let i = 0; i < 80; i++) {
      const y = groundTop + (h - groundTop) * r.range(0.3, 1);
      const color = scene.colors.accent ?? r.pick(['#ff6f91', '#ffd166', '#ffffff', '#c77dff', '#ef476f']);
      out.push(
        `<circle cx="${f(r.range(0, w))}" cy="${f(y)}" r="${f(s * 0.006 * (1 + (y - groundTop) / h))}" fill="${shade(color, Math.max(0.4, pal.light))}"/>`,
      );
    }
  }
  if (scene.objects.has('boat') && scene.water) {
    const x = w * r.range(0.2, 0.6);
    const y = horizon + (shoreY - horizon) * 0.45;
    const size = s * 0.07;
    out.push(
      `<path d="M${f(x - size)} ${f(y)} L${f(x + size)} ${f(y)} L${f(x + size * 0.7)} ${f(y + size * 0.3)} L${f(x - size * 0.7)} ${f(y + size * 0.3)} Z" fill="${shade('#5a3b22', pal.light)}"/>`,
    );
    out.push(
      `<polygon points="${f(x)},${f(y - size * 1.4)} ${f(x)},${f(y - size * 0.05)} ${f(x + size * 0.8)},${f(y - size * 0.05)}" fill="${mix(shade('#f5f0e6', pal.light), pal.accent, scene.colors.accent ? 0.6 : 0)}"/>`,
    );
    out.push(
      `<polygon points="${f(x - size * 0.05)},${f(y - size * 1.2)} ${f(x - size * 0.05)},${f(y - size * 0.05)} ${f(x - size * 0.6)},${f(y - size * 0.05)}" fill="${shade('#e8e0d0', pal.light)}"/>`,
    );
  }
  if (scene.objects.has('birds')) {
    const n = r.int(3, 7);
    const cx = w * r.range(0.2, 0.8);
    const cy = horizon * r.range(0.25, 0.55);
    for (let i = 0; i < n; i++) {
      const x = cx + r.range(-0.12, 0.12) * w;
      const y = cy + r.range(-0.08, 0.08) * h;
      const b = s * r.range(0.012, 0.022);
      out.push(
        `<path d="M${f(x - b)} ${f(y)} Q${f(x - b / 2)} ${f(y - b * 0.6)} ${f(x)} ${f(y)} Q${f(x + b / 2)} ${f(y - b * 0.6)} ${f(x + b)} ${f(y)}" stroke="${night ? '#d0d4dc' : '#1d1d1d'}" stroke-width="${f(Math.max(1, b * 0.15))}" fill="none"/>`,
      );
    }
  }
  return out.join('');
}

function weatherLayer(scene: Scene, pal: Palette, w: number, h: number): string {
  const r = seededRandom(scene.seed, 'weather');
  const out: string[] = [];
  const s = Math.min(w, h);
  if (scene.weather === 'rain' || scene.weather === 'storm') {
    const n = Math.min(900, Math.round((w * h) / 2500));
    for (let i = 0; i < n; i++) {
      const x = r.range(0, w);
      const y = r.range(0, h);
      const len = s * r.range(0.02, 0.045);
      out.push(
        `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x - len * 0.25)}" y2="${f(y + len)}" stroke="#c8d4e0" stroke-width="${f(Math.max(1, s * 0.0015))}" opacity="0.45"/>`,
      );
    }
  }
  if (scene.weather === 'storm') {
    let x = w * r.range(0.2, 0.8);
    let y = 0;
    let d = `M${f(x)} 0`;
    while (y < h * 0.55) {
      x += r.range(-0.04, 0.04) * w;
      y += h * r.range(0.04, 0.08);
      d += ` L${f(x)} ${f(y)}`;
    }
    out.push(`<path d="${d}" stroke="#f5f3ff" stroke-width="${f(s * 0.006)}" fill="none" opacity="0.9"/>`);
  }
  if (scene.weather === 'snow') {
    const n = Math.min(900, Math.round((w * h) / 2500));
    for (let i = 0; i < n; i++)
      out.push(
        `<circle cx="${f(r.range(0, w))}" cy="${f(r.range(0, h))}" r="${f(s * r.range(0.002, 0.006))}" fill="#ffffff" opacity="${f(r.range(0.5, 0.95))}"/>`,
      );
  }
  if (scene.weather === 'fog') {
    out.push(
      `<defs><linearGradient id="fog" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${pal.cloud}" stop-opacity="0.15"/>` +
        `<stop offset="0.6" stop-color="${pal.cloud}" stop-opacity="0.6"/><stop offset="1" stop-color="${pal.cloud}" stop-opacity="0.35"/></linearGradient></defs>`,
    );
    out.push(`<rect width="${w}" height="${h}" fill="url(#fog)"/>`);
  }
  return out.join('');
}

/** The horizon's height for a scene, as a fraction of the picture's height. */
export function horizonFraction(scene: Scene): number {
  return scene.land === 'ocean' ? 0.55 : scene.land === 'city' ? 0.68 : 0.62;
}

/** Paints the scene (or some of its layers, on a transparent background) as an SVG document. */
export function paintScene(scene: Scene, options: PaintOptions): string {
  const { width: w, height: h } = options;
  const layers = options.layers ?? ALL_LAYERS;
  const pal = palette(scene);
  const horizon = h * horizonFraction(scene);
  const body: string[] = [];
  if (layers.includes('sky')) body.push(skyLayer(scene, pal, w, h, horizon));
  if (layers.includes('far')) body.push(farLayer(scene, pal, w, h, horizon));
  if (layers.includes('near')) body.push(nearLayer(scene, pal, w, h, horizon));
  if (layers.includes('weather')) body.push(weatherLayer(scene, pal, w, h));
  if (layers.includes('sky') && scene.colors.first) {
    body.push(`<rect width="${w}" height="${h}" fill="${scene.colors.first}" opacity="0.08"/>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    body.join('') +
    `</svg>`
  );
}
