/**
 * Reads the written text in a picture (meme captions, signs, subtitles burnt into a frame) with
 * tesseract.js 7 (Tesseract's LSTM engine compiled to WebAssembly, `tesseract.js-core`), so that the
 * violence and hate policies can score an image by the words it carries (imagePolicies.ts).
 *
 * Nothing is fetched from the network. tesseract.js would download language data from a CDN when no
 * `langPath` is given; here every language is read from its installed npm package
 * (`@tesseract.js-data/<lang>/4.0.0_best_int/<lang>.traineddata.gz`, the integer LSTM models) through
 * a per-process temp folder of symlinks (tesseract.js wants one folder for all languages, pnpm gives
 * each package its own), `cacheMethod: 'none'` so nothing is read from or written to a cache, and the
 * wasm core is `require`d by tesseract.js from the installed `tesseract.js-core`.
 *
 * Languages: MEDIAGEN_OCR_LANGUAGES (Tesseract codes joined by "+", default "eng"), each read from
 * its installed `@tesseract.js-data/<code>` package; only eng is a dependency of the server. English
 * alone reads the Latin letters of the other Latin-script spec languages well enough for the lexicons
 * (accents mostly survive, umlauts sometimes not), and every extra language multiplies the time of
 * every recognition: measured on this 2-core machine, the Latin seven together took about 5x English
 * alone (median 2.8 s instead of 0.5 s per ordinary photo). Chinese, Japanese, Korean and Arabic
 * packages exist but are larger still; Russian has none. See docs/moderation.md.
 *
 * One worker per process, created lazily on the first violence or hate image (not in warmUp: it costs
 * about 1 s and 100-200 MB, and most deployments never ask these policies of an image). It is
 * terminated after OCR_IDLE_MS without work, which returns the memory and lets the process exit.
 *
 * Each picture is read twice: once as a grey, enlarged copy (dark text on a light ground: captions,
 * signs) and once as a mask of its brightest pixels (white meme lettering with a dark outline, which
 * Tesseract misreads on a busy photo). Words under MIN_WORD_CONFIDENCE, and "words" without two
 * letters, are dropped: photo textures come back as low-confidence fragments ("|", "Ee", "KILEY)").
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { ImageDecodeError } from './decodeImage.js';

/** Tesseract language codes read (MEDIAGEN_OCR_LANGUAGES, "+"-joined; default eng). */
export function configuredOcrLanguages(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.MEDIAGEN_OCR_LANGUAGES?.trim() || 'eng';
  const codes = raw.split('+').map((c) => c.trim());
  for (const code of codes) {
    if (!/^[a-z]{3}(_[a-z]+)?$/.test(code)) {
      throw new Error(
        `MEDIAGEN_OCR_LANGUAGES: "${code}" is not a Tesseract language code (eng, deu, chi_sim, ...)`,
      );
    }
  }
  return codes;
}

/** Tesseract word confidence (0-100) below which a word is ignored. */
export const MIN_WORD_CONFIDENCE = 60;

/** Longest side the picture is enlarged or reduced to before recognition (Tesseract wants tall letters). */
const OCR_SIDE = 1280;
/** Never enlarge more than this: a thumbnail's letters do not become readable by blowing them up. */
const MAX_ENLARGE = 3;
/** Grey level at or above which a pixel counts as "bright lettering" in the second reading. */
const BRIGHT_TEXT_LEVEL = 200;
/** A recognition that takes longer than this fails (a 500): a loaded machine, never a normal picture. */
export const OCR_TIMEOUT_MS = 30_000;
/** The worker is terminated after this long without a recognition. */
const OCR_IDLE_MS = 60_000;

const require = createRequire(import.meta.url);

let worker: Promise<Worker> | undefined;
let langDir: string | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let busy = 0;

function languageFolder(codes: readonly string[]): string {
  const packages = codes.map((code) => {
    try {
      return { code, dir: dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)) };
    } catch {
      throw new Error(
        `MEDIAGEN_OCR_LANGUAGES names "${code}", but @tesseract.js-data/${code} is not installed (add it to the server's dependencies)`,
      );
    }
  });
  const dir = mkdtempSync(join(tmpdir(), 'mediagen-tessdata-'));
  for (const { code, dir: pkg } of packages) {
    symlinkSync(join(pkg, '4.0.0_best_int', `${code}.traineddata.gz`), join(dir, `${code}.traineddata.gz`));
  }
  return dir;
}

function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const { createWorker, OEM } = await import('tesseract.js');
    const codes = configuredOcrLanguages();
    langDir = languageFolder(codes);
    const created = await createWorker(codes.join('+'), OEM.LSTM_ONLY, {
      langPath: langDir,
      cachePath: langDir,
      cacheMethod: 'none',
      gzip: true,
    });
    // Tesseract prints its diagnostics ("Invalid resolution", "Line cannot be recognized") to the
    // console of every recognition; they are not the server's log. debug_file sends them to the
    // wasm file system's /dev/null.
    await created.setParameters({ debug_file: '/dev/null' } as never);
    return created;
  })();
  worker.catch(() => {
    worker = undefined;
    removeLanguageFolder();
  });
  return worker;
}

function removeLanguageFolder(): void {
  if (langDir) rmSync(langDir, { recursive: true, force: true });
  langDir = undefined;
}

/** Terminates the OCR worker (if any); the next recognition starts a fresh one. */
export async function closeOcrWorker(): Promise<void> {
  clearTimeout(idleTimer);
  const current = worker;
  worker = undefined;
  if (current) await (await current.catch(() => undefined))?.terminate();
  removeLanguageFolder();
}

function scheduleIdleClose(): void {
  clearTimeout(idleTimer);
  if (busy > 0) return;
  idleTimer = setTimeout(() => void closeOcrWorker(), OCR_IDLE_MS);
  idleTimer.unref();
}

/** The two grey pictures Tesseract reads (see the file comment). Throws ImageDecodeError. */
async function ocrInputs(image: Buffer): Promise<Buffer[]> {
  try {
    const source = sharp(image, { pages: 1, failOn: 'error', limitInputPixels: 100_000_000 });
    const { width = 0, height = 0, orientation = 1 } = await source.metadata();
    const [w, h] = orientation >= 5 ? [height, width] : [width, height];
    const scale = Math.min(MAX_ENLARGE, OCR_SIDE / Math.max(w, h, 1));
    const grey = await source
      .rotate()
      .flatten({ background: '#ffffff' })
      .grayscale()
      .resize(Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)), { kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: grey.info.width, height: grey.info.height, channels: grey.info.channels } };
    return await Promise.all([
      sharp(grey.data, raw).png({ compressionLevel: 1 }).toBuffer(),
      sharp(grey.data, raw).threshold(BRIGHT_TEXT_LEVEL).negate().png({ compressionLevel: 1 }).toBuffer(),
    ]);
  } catch (error) {
    throw new ImageDecodeError(`image could not be decoded: ${(error as Error).message}`);
  }
}

interface OcrWord {
  text: string;
  confidence: number;
}

function confidentText(words: readonly OcrWord[]): string {
  return words
    .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE && (w.text.match(/\p{L}/gu)?.length ?? 0) >= 2)
    .map((w) => w.text)
    .join(' ');
}

function withDeadline<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`OCR took longer than ${OCR_TIMEOUT_MS} ms`)),
      OCR_TIMEOUT_MS,
    );
    const onAbort = () => reject(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/**
 * The confident text of each reading of the picture (one string per reading, '' where nothing
 * legible was found). Throws ImageDecodeError for bytes that are not an image; `onDecoded` is called
 * once the picture has been decoded, before it is read.
 */
export async function readImageText(
  image: Buffer,
  signal?: AbortSignal,
  onDecoded?: () => void,
): Promise<string[]> {
  signal?.throwIfAborted();
  const inputs = await ocrInputs(image);
  onDecoded?.();
  busy += 1;
  clearTimeout(idleTimer);
  try {
    const tesseract = await withDeadline(ocrWorker(), signal);
    const texts: string[] = [];
    for (const input of inputs) {
      signal?.throwIfAborted();
      const { data } = await withDeadline(
        tesseract.recognize(input, {}, { blocks: true, text: false }),
        signal,
      );
      const words = (data.blocks ?? []).flatMap((b) =>
        b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)),
      );
      texts.push(confidentText(words));
    }
    return texts;
  } finally {
    busy -= 1;
    scheduleIdleClose();
  }
}
