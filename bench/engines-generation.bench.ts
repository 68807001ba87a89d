/**
 * Generation engine benchmarks (issue 5): for each of the nine tasks with default parameters, the
 * engine's wall time (what a job adds between "processing" and "completed", apart from storage) and
 * the CPU seconds it spends, ffmpeg and espeak child processes included, per second of output video or
 * audio. Each figure is shown next to the spec's quoted time for its hosted models and next to a
 * baseline measured in the same run on the same machine:
 *   - images: sharp encoding a blank picture of the same size and format (the encoder's floor);
 *   - video: ffmpeg encoding a flat colour clip of the same size, length and codecs (the encoder's floor);
 *   - audio: ffmpeg encoding the same length of silence to MP3 (the encoder's floor).
 * Run: `npm run bench -- engines-generation` (or `npx tsx bench/engines-generation.bench.ts`). Writes
 * the "Generation engines" section of docs/benchmarks.md between its markers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { TaskName } from '@mediagen/core';
import { ffmpeg, ffmpegBinary, probe } from '../server/src/media/ffmpeg.js';
import type { EngineInput, GenerationEngine, InputMedia } from '../server/src/engines/types.js';
import { textToImageEngine } from '../server/src/engines/image/textToImage.js';
import { imageToImageEngine } from '../server/src/engines/image/imageToImage.js';
import { textToVideoEngine } from '../server/src/engines/video/textToVideo.js';
import { imageToVideoEngine } from '../server/src/engines/video/imageToVideo.js';
import { referenceToVideoEngine } from '../server/src/engines/video/referenceToVideo.js';
import { videoToVideoEngine } from '../server/src/engines/video/videoToVideo.js';
import { videoExtendEngine } from '../server/src/engines/video/videoExtend.js';
import { textToSpeechEngine } from '../server/src/engines/audio/textToSpeech.js';
import { textToMusicEngine } from '../server/src/engines/audio/textToMusic.js';
import { writeSection } from './lib/benchDoc.js';
import { makeBenchInputs } from './lib/benchInputs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'server/package.json'));
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- sharp resolves from server/, not from bench/
const sharp = require('sharp') as typeof import('sharp');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** CPU seconds of this process plus every child it has waited for (Linux /proc; 0 elsewhere). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) sit at index 13 and 14.
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // not Linux
  }
  return (own.user + own.system) / 1e6 + children;
}

interface Measure {
  wallMs: number;
  cpuS: number;
  outputSeconds?: number;
}

async function measure(fn: () => Promise<number | undefined>, runs = RUNS): Promise<Measure> {
  await fn(); // one untimed run: module loading and first-call compilation
  const walls: number[] = [];
  const cpu: number[] = [];
  let outputSeconds: number | undefined;
  for (let i = 0; i < runs; i++) {
    const c = cpuSeconds();
    const t = performance.now();
    outputSeconds = await fn();
    walls.push(performance.now() - t);
    cpu.push(cpuSeconds() - c);
  }
  walls.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { wallMs: walls[Math.floor(runs / 2)]!, cpuS: cpu[Math.floor(runs / 2)]!, outputSeconds };
}

function media(field: string, path: string, kind: InputMedia['kind'], mime: string, index = 0): InputMedia {
  return { field, index, url: `http://bench.test/${field}/${index}`, path, kind, mime };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'engines-bench-'));
  const rows: string[] = [];
  try {
    // Inputs: a 1024x1024 photo-like picture, a 5 s 720p clip with sound, a 10 s tune.
    const { photo, clip, tune } = await makeBenchInputs(dir);

    let n = 0;
    const run = async (
      engine: GenerationEngine,
      task: TaskName,
      params: Record<string, unknown>,
      inputs: InputMedia[] = [],
    ) => {
      const workDir = join(dir, `job-${n++}`);
      await import('node:fs/promises').then((fs) => fs.mkdir(workDir));
      const input: EngineInput = {
        task,
        params,
        media: inputs,
        workDir,
        seed: n,
        signal: new AbortController().signal,
      };
      const out = await engine.run(input);
      const file = out.files[0]!;
      const seconds = out.type === 'image' ? undefined : (await probe(file.path)).durationSeconds;
      await rm(workDir, { recursive: true, force: true });
      return seconds;
    };

    // Baselines: the encoders' floor for the same output.
    const blankImage = await measure(async () => {
      await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      return undefined;
    });
    const encodeVideo = (seconds: number, size: string) =>
      measure(async () => {
        const out = join(dir, `flat-${n++}.mp4`);
        await ffmpeg([
          '-f',
          'lavfi',
          '-i',
          `color=c=gray:s=${size}:r=24:d=${seconds}`,
          '-f',
          'lavfi',
          '-t',
          String(seconds),
          '-i',
          'anullsrc=r=44100:cl=stereo',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-b:a',
          '128k',
          '-t',
          String(seconds),
          out,
        ]);
        await rm(out);
        return seconds;
      }, 2);
    const encodeAudio = (seconds: number) =>
      measure(async () => {
        const out = join(dir, `silence-${n++}.mp3`);
        await ffmpeg([
          '-f',
          'lavfi',
          '-t',
          String(seconds),
          '-i',
          'anullsrc=r=44100:cl=stereo',
          '-c:a',
          'libmp3lame',
          '-b:a',
          '160k',
          out,
        ]);
        await rm(out);
        return seconds;
      }, 2);
    const video720x5 = await encodeVideo(5, '1280x720');
    const audio60 = await encodeAudio(60);
    const audio3 = await encodeAudio(3);

    const sentence = 'The quick brown fox jumps over the lazy dog, and then it runs away into the forest.';
    const cases: Array<{
      label: string;
      spec: string;
      target?: string;
      m: Measure;
      base: Measure;
      baseLabel: string;
    }> = [];
    const add = async (
      label: string,
      spec: string,
      target: string | undefined,
      base: Measure,
      baseLabel: string,
      fn: () => Promise<number | undefined>,
      runs?: number,
    ) => {
      const m = await measure(fn, runs);
      cases.push({ label, spec, target, m, base, baseLabel });
      console.log(label, `${(m.wallMs / 1000).toFixed(2)} s wall, ${m.cpuS.toFixed(2)} CPU s`);
    };
    await add(
      'text-to-image, 1k 1:1 png',
      'image 3-15 s',
      '<= 1 s',
      blankImage,
      'sharp: blank 1024x1024 png',
      () =>
        run(textToImageEngine, 'text-to-image', {
          prompt: 'mountains by a lake at sunset with a cabin',
          resolution: '1k',
        }),
    );
    await add(
      'image-to-image, 1024x1024 jpeg, black and white + sharpen',
      'image 3-15 s',
      undefined,
      blankImage,
      'sharp: blank 1024x1024 png',
      () =>
        run(imageToImageEngine, 'image-to-image', { prompt: 'black and white, sharpen', image: 'x' }, [
          media('image', photo, 'image', 'image/jpeg'),
        ]),
    );
    await add(
      'text-to-video, 5 s 720p 16:9',
      'video 30 s - 5 min',
      '<= 10 s',
      video720x5,
      'ffmpeg: flat 5 s 720p H.264/AAC',
      () =>
        run(textToVideoEngine, 'text-to-video', {
          prompt: 'a lake among mountains at sunset, rain',
          duration: '5',
          resolution: '720p',
        }),
      2,
    );
    await add(
      'image-to-video, 5 s 720p',
      'video 30 s - 5 min',
      undefined,
      video720x5,
      'ffmpeg: flat 5 s 720p H.264/AAC',
      () =>
        run(
          imageToVideoEngine,
          'image-to-video',
          { image: 'x', prompt: 'slow zoom in', duration: '5', resolution: '720p' },
          [media('image', photo, 'image', 'image/jpeg')],
        ),
      2,
    );
    await add(
      'reference-to-video, 3 images + audio, 5 s 720p (default)',
      'video 30 s - 5 min',
      undefined,
      video720x5,
      'ffmpeg: flat 5 s 720p H.264/AAC',
      () =>
        run(
          referenceToVideoEngine,
          'reference-to-video',
          { prompt: '@Image1 then @Image2 then @Image3 with @Audio1' },
          [0, 1, 2]
            .map((i) => media('reference_images', photo, 'image', 'image/jpeg', i))
            .concat(media('reference_audios', tune, 'audio', 'audio/mpeg')),
        ),
      2,
    );
    await add(
      'video-to-video, 5 s 720p, cinematic grade',
      'video 30 s - 5 min',
      undefined,
      video720x5,
      'ffmpeg: flat 5 s 720p H.264/AAC',
      () =>
        run(videoToVideoEngine, 'video-to-video', { prompt: 'cinematic look', image: 'x' }, [
          media('image', clip, 'video', 'video/mp4'),
        ]),
      2,
    );
    await add(
      'video-extend, 5 s 720p + 5 s',
      'video 30 s - 5 min',
      undefined,
      video720x5,
      'ffmpeg: flat 5 s 720p H.264/AAC',
      () =>
        run(videoExtendEngine, 'video-extend', { image: 'x', prompt: 'zoom in', duration: '5' }, [
          media('image', clip, 'video', 'video/mp4'),
        ]),
      2,
    );
    await add(
      'text-to-speech, one sentence (16 words)',
      'audio 3-15 s',
      '<= 1 s',
      audio3,
      'ffmpeg: 3 s of silence to MP3',
      () => run(textToSpeechEngine, 'text-to-speech', { prompt: sentence, voice: 'en-us' }),
    );
    await add(
      'text-to-speech, same sentence, no voice (language detection)',
      'audio 3-15 s',
      undefined,
      audio3,
      'ffmpeg: 3 s of silence to MP3',
      () => run(textToSpeechEngine, 'text-to-speech', { prompt: sentence }),
    );
    await add(
      'text-to-music, 60 s (default)',
      'audio 3-15 s',
      '<= 5 s',
      audio60,
      'ffmpeg: 60 s of silence to MP3',
      () => run(textToMusicEngine, 'text-to-music', { prompt: 'upbeat pop song at 120 bpm', duration: '60' }),
      2,
    );

    for (const c of cases) {
      const perOut = c.m.outputSeconds ? `${(c.m.cpuS / c.m.outputSeconds).toFixed(2)}` : '';
      const ratio = (c.m.wallMs / c.base.wallMs).toFixed(1);
      rows.push(
        `| ${c.label} | ${(c.m.wallMs / 1000).toFixed(2)} s | ${c.m.cpuS.toFixed(2)} s | ${perOut} | ${c.target ?? ''} | ${c.spec} | ${c.baseLabel}: ${(c.base.wallMs / 1000).toFixed(2)} s | ${ratio}x |`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const ffmpegKind = ffmpegBinary().includes('node_modules')
    ? 'ffmpeg 4.1 static (npm)'
    : `system ffmpeg (${ffmpegBinary()})`;
  const loadAvg = (await readFile('/proc/loadavg', 'utf8').catch(() => '')).split(' ').slice(0, 3).join(' ');
  const section = [
    '## Generation engines (nine tasks)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${cpus().length} cores, ` +
      `${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}, ${ffmpegKind}; load average at the end ${loadAvg || 'n/a'}. ` +
      `Median of ${RUNS} runs (2 for video and music) after one untimed run. Wall time is the engine alone ` +
      '(a job adds the download of inputs and storage). CPU counts this process and its ffmpeg/espeak children. ' +
      'The machine is shared with other work: read the ratio to the encoder floor measured in the same run before the absolute figures. ' +
      'The "spec" column is the time the spec quotes for its hosted generative models (4.2); these engines are procedural stand-ins (docs/engines.md).',
    '',
    '| Task, parameters | Wall | CPU | CPU s per output s | Target (issue 5) | Spec quotes | Baseline (same run) | Ratio |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(section);
  writeSection('engines-generation', section);
}

await main();
