/**
 * Upscale benchmark (issue 5: "resolution 2k/4k may use the ESRGAN model that ships in
 * @upscalerjs/default-model if it proves good and fast enough; measure before adopting").
 *
 * Quality: real public-domain / CC0 photos (test/fixtures/moderation, see its SOURCES.md) are halved
 * with sharp's bicubic (the degradation the models were trained on) and brought back to their size by
 *   - sharp resize(kernel lanczos3): how image-to-image enlarged before enlargeImage.ts (the baseline);
 *   - sharp affine x2 with the nohalo and bicubic interpolators, centred (output pixel i samples
 *     input (i - 0.5) / 2), because sharp's resize shifts an enlargement by half an output pixel
 *     (measured below) and a fair classical baseline must not carry that shift;
 *   - each UpscalerJS model that is installed (bench/lib/esrgan.ts);
 * then compared with the original: PSNR and SSIM on the luma, 2 px border dropped
 * (server/src/engines/image/imageQuality.ts).
 * Speed: the sizes the engine meets (512->1024, 1024->2048, 2048->4096), each model against sharp in
 * the same run. A model's size is skipped when its rate at the size below predicts more than
 * BENCH_UPSCALE_MAX_S (300) seconds; the table says so.
 *
 * esrgan-thick (110 MB on npm) is not a dependency: to include it, unpack its tarball
 * (`npm pack @upscalerjs/esrgan-thick@1.0.0`) and set BENCH_UPSCALE_THICK_DIR to its `package` folder.
 * Run: `npm run bench -- upscale` (or `npx tsx bench/upscale.bench.ts`). Writes the "upscale" section
 * of docs/benchmarks.md between its markers.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type SharpModule from 'sharp';
import type * as tfType from '@tensorflow/tfjs';
import { tfReady } from '../server/src/engines/moderation/tfBackend.js';
import { enlargeCentred } from '../server/src/engines/image/enlargeImage.js';
import { cropBorder, lumaPlane, psnr, ssim } from '../server/src/engines/image/imageQuality.js';
import { CONTEXT, TILE, loadEsrgan, upscaleRgb } from './lib/esrgan.js';
import { machine, writeSection } from './lib/benchDoc.js';
import { percentile, time } from './lib/timing.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'server/package.json'));
const sharp = require('sharp') as typeof SharpModule;

const SCALE = 2;
const MAX_S = Number(process.env.BENCH_UPSCALE_MAX_S ?? 300);
const PHOTOS = ['astronaut', 'coffee', 'chelsea-cat', 'rocket', 'brick-wall', 'dandelions', 'grace-hopper'];
const SIZES = [512, 1024, 2048];

interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
}
type Upscaler = (image: Raster) => Promise<Uint8Array>;

/** The folder of an installed package (its entry lives under <folder>/dist/). */
function packageDir(name: string): string | undefined {
  try {
    const entry = require.resolve(name);
    return entry.slice(0, entry.lastIndexOf('/dist/'));
  } catch {
    return undefined;
  }
}

const MODELS = [
  {
    name: 'slim',
    label: 'ESRGAN slim (`@upscalerjs/default-model` = esrgan-slim x2, RDN, 0.9 MB)',
    dir: packageDir('@upscalerjs/default-model'),
    json: 'models/model.json',
  },
  {
    name: 'medium',
    label: 'ESRGAN medium (`@upscalerjs/esrgan-medium` x2, RDN, 2.8 MB)',
    dir: packageDir('@upscalerjs/esrgan-medium'),
    json: 'models/x2/model.json',
  },
  {
    name: 'thick',
    label: 'ESRGAN thick (`@upscalerjs/esrgan-thick` x2, RRDN, 29 MB)',
    dir: process.env.BENCH_UPSCALE_THICK_DIR ?? packageDir('@upscalerjs/esrgan-thick'),
    json: 'models/x2/model.json',
  },
];

const raw = (image: Raster) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });

const sharpResize: Upscaler = async (image) =>
  raw(image)
    .resize(image.width * SCALE, image.height * SCALE, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();

/** x2 with a libvips interpolator, pixel centres aligned: what image-to-image enlarges with. */
const centred =
  (interpolator: 'nohalo' | 'bicubic'): Upscaler =>
  async (image) =>
    (await enlargeCentred(image, image.width * SCALE, image.height * SCALE, interpolator)).data;

async function readPhoto(name: string): Promise<Raster> {
  const file = join(root, 'test/fixtures/moderation', `${name}.jpg`);
  const meta = await sharp(file).metadata();
  const width = meta.width! & ~1;
  const height = meta.height! & ~1;
  const data = await sharp(file).extract({ left: 0, top: 0, width, height }).removeAlpha().raw().toBuffer();
  return { data, width, height };
}

/** Sub-pixel offset (in output pixels, x = y) at which `up` best matches `orig`: 0 for a centred method. */
function bestShift(orig: Raster, up: Uint8Array): number {
  const a = lumaPlane(orig.data, orig.width, orig.height);
  const b = lumaPlane(up, orig.width, orig.height);
  const border = 4;
  const w = orig.width - 2 * border;
  const h = orig.height - 2 * border;
  let best = { shift: 0, psnr: -Infinity };
  for (let s = -1; s <= 1; s += 0.25) {
    const moved = new Float64Array(w * h);
    const base = Math.floor(s);
    const f = s - base;
    const at = (x: number, y: number) => b.data[y * b.width + x]!;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const X = x + border + base;
        const Y = y + border + base;
        moved[y * w + x] =
          (1 - f) * ((1 - f) * at(X, Y) + f * at(X + 1, Y)) +
          f * ((1 - f) * at(X, Y + 1) + f * at(X + 1, Y + 1));
      }
    }
    const value = psnr(cropBorder(a, border), { width: w, height: h, data: moved });
    if (value > best.psnr) best = { shift: s, psnr: value };
  }
  return best.shift;
}

const fmt = (v: number, digits = 2) => v.toFixed(digits);
const seconds = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`;
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

async function main() {
  const loadAtStart = loadavg()[0]!.toFixed(2);
  const tf = await tfReady();
  const models: Array<{ name: string; label: string; run: Upscaler; model: tfType.LayersModel }> = [];
  const missing: string[] = [];
  const warmUpRate = new Map<string, number>(); // ms per input pixel of the untimed first call
  for (const m of MODELS) {
    const json = m.dir && join(m.dir, m.json);
    if (!json || !existsSync(json)) {
      missing.push(m.label);
      continue;
    }
    const model = await loadEsrgan(tf, json, SCALE);
    const run: Upscaler = async (image) =>
      upscaleRgb(tf, model, SCALE, image.data, image.width, image.height);
    const t = performance.now();
    await run({ data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 }); // kernels compiled, untimed
    warmUpRate.set(m.name, (performance.now() - t) / (64 * 64));
    models.push({ name: m.name, label: m.label, run, model });
  }

  // --- Quality ---
  const methods: Array<{ name: string; label: string; run: Upscaler }> = [
    {
      name: 'resize',
      label: 'sharp resize, lanczos3 (image-to-image before the centred fix)',
      run: sharpResize,
    },
    { name: 'nohalo', label: 'sharp affine x2, nohalo, centred', run: centred('nohalo') },
    { name: 'bicubic', label: 'sharp affine x2, bicubic, centred', run: centred('bicubic') },
    ...models,
  ];
  const scores = new Map<string, Array<{ psnr: number; ssim: number }>>(methods.map((m) => [m.name, []]));
  const shifts = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  const qualityRows: string[] = [];
  for (const name of PHOTOS) {
    const orig = await readPhoto(name);
    const small: Raster = {
      data: await raw(orig)
        .resize(orig.width / SCALE, orig.height / SCALE, { kernel: 'cubic' })
        .raw()
        .toBuffer(),
      width: orig.width / SCALE,
      height: orig.height / SCALE,
    };
    const reference = cropBorder(lumaPlane(orig.data, orig.width, orig.height), SCALE);
    const cells: string[] = [];
    for (const method of methods) {
      const up = await method.run(small);
      const plane = cropBorder(lumaPlane(up, orig.width, orig.height), SCALE);
      const score = { psnr: psnr(reference, plane), ssim: ssim(reference, plane) };
      scores.get(method.name)!.push(score);
      shifts.get(method.name)!.push(bestShift(orig, up));
      cells.push(`${fmt(score.psnr)} / ${fmt(score.ssim, 4)}`);
    }
    qualityRows.push(`| ${name} ${orig.width}x${orig.height} | ${cells.join(' | ')} |`);
    console.log(qualityRows.at(-1));
  }
  const meanPsnr = (name: string) => mean(scores.get(name)!.map((s) => s.psnr));
  const meanSsim = (name: string) => mean(scores.get(name)!.map((s) => s.ssim));
  qualityRows.push(
    `| **mean** | ${methods.map((m) => `**${fmt(meanPsnr(m.name))} / ${fmt(meanSsim(m.name), 4)}**`).join(' | ')} |`,
  );
  const gainRows = models.map((m) => {
    const vs = (base: string) => {
      const d = scores.get(m.name)!.map((s, i) => s.psnr - scores.get(base)![i]!.psnr);
      return `${d.map((v) => (v >= 0 ? '+' : '') + fmt(v)).join(', ')} (mean ${fmt(mean(d))})`;
    };
    return `| ${m.name} | ${vs('resize')} | ${vs('nohalo')} | ${vs('bicubic')} |`;
  });
  const shiftRow = `| best-matching shift (output px), per photo | ${methods
    .map((m) => [...new Set(shifts.get(m.name)!)].join(', '))
    .join(' | ')} |`;

  // --- Speed ---
  const photo = join(root, 'test/fixtures/moderation/astronaut.jpg');
  const speedRows: string[] = [];
  const predicted = new Map<string, number>(); // model name -> ms per input pixel at the last size
  for (const size of SIZES) {
    const data = await sharp(photo).resize(size, size).removeAlpha().raw().toBuffer();
    const image: Raster = { data, width: size, height: size };
    const resizeMs = percentile(await time(() => sharpResize(image), 5), 50);
    const nohaloMs = percentile(await time(() => centred('nohalo')(image), 5), 50);
    const bicubicMs = percentile(await time(() => centred('bicubic')(image), 5), 50);
    const cells = [
      `${seconds(resizeMs)}`,
      `${seconds(nohaloMs)} (${fmt(nohaloMs / resizeMs, 1)}x)`,
      `${seconds(bicubicMs)} (${fmt(bicubicMs / resizeMs, 1)}x)`,
    ];
    for (const m of models) {
      const rate = predicted.get(m.name);
      if (rate !== undefined && rate * size * size > MAX_S * 1000) {
        cells.push(`not run: about ${seconds(rate * size * size)} predicted from the size below`);
        continue;
      }
      const guess = (rate ?? warmUpRate.get(m.name)!) * size * size;
      const runs = guess < 20_000 ? 3 : 1;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const out = await m.run(image);
        times.push(performance.now() - t);
        if (out.length !== size * SCALE * size * SCALE * 3) throw new Error(`${m.name}: wrong output size`);
      }
      const ms = percentile(times, 50);
      predicted.set(m.name, ms / (size * size));
      cells.push(`${seconds(ms)} (${fmt(ms / resizeMs, 0)}x)${runs === 1 ? ' ¹' : ''}`);
      console.log(`${m.name} ${size} -> ${size * SCALE}: ${seconds(ms)}`);
    }
    speedRows.push(`| ${size} -> ${size * SCALE} | ${cells.join(' | ')} |`);
  }
  for (const m of models) m.model.dispose();

  const methodHeads = methods.map((m) => m.label);
  const markdown = `
## Upscaling: sharp vs the UpscalerJS "ESRGAN" models (issue 5)

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()} (${loadAtStart} at the start). TensorFlow.js ${tf.version.tfjs}, WASM backend (one thread, as the server runs it), tiles of ${TILE} px with ${CONTEXT} px of context; sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}). Every model was loaded from the weights inside its npm package; nothing was downloaded.${missing.length ? ` Not measured (not installed): ${missing.join('; ')}.` : ''} The machine is shared: read the ratios (same run) before the absolute times. Decision and reading: docs/engines.md ("Upscaling").

**Quality**: each photo halved with sharp's bicubic, then enlarged x2 back to its size; PSNR (dB) / SSIM of the luma against the original, ${SCALE} px border dropped (\`server/src/engines/image/imageQuality.ts\`). Higher is better.

| Photo | ${methodHeads.join(' | ')} |
|---|${methods.map(() => '---|').join('')}
${qualityRows.join('\n')}
${shiftRow}

PSNR gain of each model per photo (dB, photos in the order above):

| Model | vs sharp resize (before the fix) | vs centred nohalo | vs centred bicubic |
|---|---|---|---|
${gainRows.join('\n')}

**Speed**: one ${SIZES[0]}, ${SIZES[1]} and ${SIZES[2]} px square photo (astronaut.jpg resized) enlarged x2, raw RGB in and out. sharp: median of 5 after one untimed run; models: median of 3, or ¹ one run where a run takes 20 s or more. Ratios are to sharp resize at the same size. The spec's hosted service quotes 3-15 s for a whole image job.

| Size | sharp resize | sharp nohalo, centred | sharp bicubic, centred | ${models.map((m) => m.name).join(' | ')} |
|---|---|---|---|${models.map(() => '---|').join('')}
${speedRows.join('\n')}
`;
  writeSection('upscale', markdown);
  console.log(markdown);
}

await main();
