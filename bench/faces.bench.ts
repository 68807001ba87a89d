/**
 * Faces benchmarks (issue 4): detect latency for a 1 MP photo and for small pictures, swap latency per face,
 * swap throughput for a 720p video, RSS with the models loaded. Each figure comes with a baseline measured
 * in the same run:
 *   - detect: the bare detector call (one run with landmarks on the already decoded picture, as findFaces
 *     makes it: BlazeFace on onnxruntime, Human's FaceMesh; no shrinking, no tiles, no crops);
 *   - one detector run, box-only and with landmarks: Human's stock run on tfjs's WASM backend;
 *   - detect on a small picture: also the whole picture only (findFaces with tiles off, the detect before
 *     small pictures were tiled), and for the small portrait the detect with tiles always searched (as
 *     before the tile pass was decided by what the whole picture shows), each with the ratio now / then;
 *   - detect on the 1 MP group: also searched with landmarks for every face (as a swap searches, and as
 *     detection did before it asked for boxes only), with the ratio boxes only / with landmarks;
 *   - detector runs per picture are counted (deterministic, unlike the times);
 *   - swap per face: the detect step it needs, on the same picture;
 *   - video: ffmpeg decoding and re-encoding the same clip with no face work (the pipeline's floor);
 *   - RSS: the process before the models were loaded.
 * Run: `npm run bench -- faces` (or `npx tsx bench/faces.bench.ts`). Writes the "Faces" section of
 * docs/benchmarks.md between its markers, leaving the rest of the file alone.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type SharpModule from 'sharp';
import { detectFaces, faceSwapEngine, warmUpFaces } from '../server/src/engines/faces/index.js';
import { crop } from '../server/src/engines/faces/crop.js';
import { findFaces as findFacesInWorker } from '../server/src/engines/faces/faceDetector.js';
import { blazeFace, WITH_LANDMARKS } from '../server/src/engines/faces/blazeFace.js';
import { downscale } from '../server/src/engines/faces/downscale.js';
import { DETECT_MAX_SIDE, findFaces } from '../server/src/engines/faces/findFaces.js';
import { tilesFor } from '../server/src/engines/faces/tiles.js';
import { human } from '../server/src/engines/faces/human.js';
import { readRgb } from '../server/src/engines/faces/readRgb.js';
import { loadSourceFace } from '../server/src/engines/faces/sourceFace.js';
import { swapFrame } from '../server/src/engines/faces/swapFrame.js';
import { countDetectorRuns } from '../server/src/testing/countDetectorRuns.js';
import { ffmpeg, ffmpegBinary, probe } from '../server/src/media/ffmpeg.js';
import { percentile, time as timeRuns } from './lib/timing.js';
import { writeSection } from './lib/benchDoc.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'test/fixtures/faces');
const require = createRequire(join(root, 'server/package.json'));
const sharp = require('sharp') as typeof SharpModule;

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const VIDEO_SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 4);

const time = (fn: () => Promise<unknown> | unknown, runs = RUNS) => timeRuns(fn, runs);

const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const rssBefore = process.memoryUsage().rss;
  const loadAtStart = loadavg()[0]!;
  const dir = await mkdtemp(join(tmpdir(), 'faces-bench-'));
  try {
    const t0 = performance.now();
    await warmUpFaces();
    const loadMs = performance.now() - t0;

    // 1 MP pictures: the single portrait and the three-face group, scaled up to about one megapixel.
    const portrait = join(dir, 'portrait-1mp.jpg');
    await sharp(join(fixtures, 'portrait-hopper.jpg'))
      .resize(925, 1084)
      .jpeg({ quality: 90 })
      .toFile(portrait);
    const group = join(dir, 'group-1mp.jpg');
    await sharp(join(fixtures, 'group-three.jpg')).resize(1540, 652).jpeg({ quality: 90 }).toFile(group);
    // A half-length portrait at 1 MP: the astronaut's face is 0.28 of the picture, so it is tiled.
    const halfLength = join(dir, 'astronaut-1mp.jpg');
    await sharp(join(fixtures, 'portrait-astronaut.jpg'))
      .resize(1024, 1024)
      .jpeg({ quality: 90 })
      .toFile(halfLength);

    const h = await human();
    const detector = await blazeFace();
    /** The bare detector call: one run with landmarks on the decoded picture, as findFaces makes it. */
    const bareDetect = async (path: string) => {
      const image = await readRgb(path);
      return time(async () => {
        const tensor = h.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
        try {
          await detector.detectWithLandmarks(tensor);
        } finally {
          h.tf.dispose(tensor);
        }
      });
    };
    // A freshly loaded detector takes about ten calls to reach its pace (the 1 MP portrait: 150 ms on the
    // first call after loading, 115 on the second, 88-92 from the tenth on), longer than time()'s one
    // untimed call; a server that has been answering for a while is past it. So both threads' detectors
    // (the worker that detectFaces uses and this thread's, for the bare calls) run a dozen times first.
    const warmImage = await readRgb(group);
    for (let i = 0; i < 12; i++) {
      await detectFaces(portrait);
      await findFacesInWorker(warmImage);
      await findFaces(warmImage);
    }
    const detect = {
      portrait: await time(() => detectFaces(portrait)),
      portraitBare: await bareDetect(portrait),
      group: await time(() => detectFaces(group)),
      groupBare: await bareDetect(group),
      halfLength: await time(() => detectFaces(halfLength)),
      halfLengthBare: await bareDetect(halfLength),
    };
    const groupFaces = (await detectFaces(group)).length;

    // Small pictures (thumbnails, chat images): the 512x217 group composite of the moderation fixtures
    // and Grace Hopper's portrait at 320 px. "Before" is detectFaces as it was before small pictures were
    // searched in tiles: decode, the whole picture only (tiles off), a crop per face.
    const smallGroup = join(root, 'test/fixtures/moderation/group-composite.jpg');
    const smallPortrait = join(dir, 'portrait-320.jpg');
    await sharp(join(fixtures, 'portrait-hopper.jpg'))
      .resize(320, 320, { fit: 'inside' })
      .jpeg({ quality: 85 })
      .toFile(smallPortrait);
    const detectWith = async (path: string, tiles: boolean | 'always', landmarks = false) => {
      const image = await readRgb(path);
      const faces = await findFacesInWorker(image, { tiles, landmarks });
      for (const face of faces) await crop(image, face.box);
      return faces.length;
    };
    // Detector runs per picture (deterministic, unlike the times): counted on this thread's detector,
    // searching as detectFaces does (boxes only for faces found in tiles) unless landmarks are asked for.
    const countRuns = async (path: string, tiles: boolean | 'always', landmarks = false) => {
      const image = await readRgb(path);
      return countDetectorRuns(() => findFaces(image, { tiles, landmarks }));
    };
    const detectorRuns = async (path: string, tiles: boolean | 'always', landmarks = false) =>
      (await countRuns(path, tiles, landmarks)).runs;
    /** "N detector runs" spelled out: how many with landmarks and how many box-only. */
    const runsLabel = async (path: string, landmarks = false) => {
      const { runs, boxOnly } = await countRuns(path, true, landmarks);
      return `${runs} detector runs: ${runs - boxOnly} with landmarks, ${boxOnly} box-only`;
    };
    const small = {
      group: await time(() => detectFaces(smallGroup)),
      groupBefore: await time(() => detectWith(smallGroup, false)),
      groupBare: await bareDetect(smallGroup),
      portrait: await time(() => detectFaces(smallPortrait)),
      portraitBefore: await time(() => detectWith(smallPortrait, false)),
      portraitTiled: await time(() => detectWith(smallPortrait, 'always')),
      portraitBare: await bareDetect(smallPortrait),
    };
    const smallCounts = {
      group: (await detectFaces(smallGroup)).length,
      groupBefore: await detectWith(smallGroup, false),
      groupRuns: await detectorRuns(smallGroup, true),
      groupRunsBefore: await detectorRuns(smallGroup, false),
      portrait: (await detectFaces(smallPortrait)).length,
      portraitBefore: await detectWith(smallPortrait, false),
      portraitTiled: await detectWith(smallPortrait, 'always'),
      portraitRuns: await detectorRuns(smallPortrait, true),
      portraitRunsBefore: await detectorRuns(smallPortrait, false),
      portraitRunsTiled: await detectorRuns(smallPortrait, 'always'),
    };
    const runsOf = {
      portrait: await detectorRuns(portrait, true),
      group: await runsLabel(group),
      halfLength: await runsLabel(halfLength),
      groupWithLandmarks: await runsLabel(group, true),
    };

    // One box-only detector run, on the first tile of the 1 MP group as findFaces cuts it (the picture
    // shrunk by 2 to 770x326, a 326 px tile): the box detector (BlazeFace converted to ONNX, on
    // onnxruntime) against Human's own box-only run on tfjs's WASM backend, which tiles used before.
    const boxes = detector;
    const groupImage = await readRgb(group);
    const shrunk = downscale(
      groupImage,
      Math.round(Math.max(groupImage.width, groupImage.height) / DETECT_MAX_SIDE),
    );
    const shrunkTensor = h.tf.tensor3d(shrunk.data, [shrunk.height, shrunk.width, 3], 'int32');
    const firstTile = tilesFor(shrunk.width, shrunk.height)[0]!;
    const tile = h.tf.slice(
      shrunkTensor,
      [firstTile.y, firstTile.x, 0],
      [firstTile.height, firstTile.width, 3],
    ) as Parameters<typeof boxes.boxes>[0];
    const humanBoxOnly = { face: { mesh: { enabled: false }, detector: { rotation: false } } } as Parameters<
      typeof h.detect
    >[1];
    const boxRun = { onnx: [] as number[], human: [] as number[] };
    for (let i = 0; i < 12; i++) {
      await boxes.boxes(tile);
      await h.detect(tile, humanBoxOnly);
    }
    for (let i = 0; i < RUNS * 2; i++) {
      let t0 = performance.now();
      await boxes.boxes(tile);
      boxRun.onnx.push(performance.now() - t0);
      t0 = performance.now();
      await h.detect(tile, humanBoxOnly);
      boxRun.human.push(performance.now() - t0);
    }
    // One run with landmarks on the same shrunk picture (findFaces's whole-picture pass): BlazeFace on
    // onnxruntime and Human's FaceMesh, against Human's stock detect with both on tfjs's WASM backend.
    const wholeRun = { onnx: [] as number[], human: [] as number[] };
    // Human's own BlazeFace has not run since loading (findFaces no longer calls it): warm it as above.
    for (let i = 0; i < 12; i++) await h.detect(shrunkTensor, WITH_LANDMARKS);
    for (let i = 0; i < RUNS * 2; i++) {
      let t0 = performance.now();
      await detector.detectWithLandmarks(shrunkTensor);
      wholeRun.onnx.push(performance.now() - t0);
      t0 = performance.now();
      await h.detect(shrunkTensor, WITH_LANDMARKS);
      wholeRun.human.push(performance.now() - t0);
    }
    h.tf.dispose([tile, shrunkTensor]);
    // The 1 MP group searched as a swap searches it (landmarks for every face: a tile that shows a new
    // face is run again), which is how detection searched it before it asked for boxes only.
    const groupWithLandmarks = await time(() => detectWith(group, true, true));
    const halfLengthFaces = (await detectFaces(halfLength)).length;

    // Swap per face: the swap step alone (warp + colour transfer + feather + blend) on a decoded picture,
    // and the whole engine run (decode, detect, swap, encode) divided by the faces it swapped.
    const [hopper] = await detectFaces(join(fixtures, 'portrait-hopper.jpg'));
    const sourcePath = join(dir, 'source.png');
    await writeFile(sourcePath, hopper!.crop);
    const source = await loadSourceFace(sourcePath);
    const target = await readRgb(group);
    const targetFaces = (await findFaces(target)).filter((f) => f.mesh.length > 0);
    const pristine = target.data.slice();
    const swapStep = await time(() => {
      target.data.set(pristine);
      swapFrame(target, targetFaces, source);
    });
    const findStep = await time(() => findFaces(target));
    let job = 0;
    const engineRun = async (path: string) => {
      const workDir = join(dir, `job-${job++}`);
      await mkdir(workDir);
      await faceSwapEngine.run({
        sourcePath,
        targetPath: path,
        targetMime: 'image/jpeg',
        workDir,
        signal: new AbortController().signal,
      });
    };
    const engineGroup = await time(() => engineRun(group), Math.max(5, Math.round(RUNS / 3)));

    // 720p video: the group photo on a 1280x720 canvas with a slow pan, 25 fps, AAC tone.
    const clip = join(dir, 'clip-720p.mp4');
    await ffmpeg([
      ...['-loop', '1', '-framerate', '25', '-i', join(fixtures, 'group-three.jpg')],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-vf', "scale=1400:-2,pad=1400:720:0:(oh-ih)/2,crop=1280:720:'min(120,n*2)':0"],
      ...[
        '-t',
        String(VIDEO_SECONDS),
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
        clip,
      ],
    ]);
    const info = await probe(clip);
    const frames = info.frameCount ?? Math.round(VIDEO_SECONDS * 25);
    const passthrough = join(dir, 'passthrough.mp4');
    let t = performance.now();
    await ffmpeg([
      ...['-i', clip, '-map', '0:v:0', '-map', '0:a?', '-c:a', 'copy'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', passthrough],
    ]);
    const passthroughSeconds = (performance.now() - t) / 1000;
    const workDir = join(dir, 'video-job');
    await mkdir(workDir);
    const cpuBefore = process.cpuUsage();
    t = performance.now();
    await faceSwapEngine.run({
      sourcePath,
      targetPath: clip,
      targetMime: 'video/mp4',
      workDir,
      signal: new AbortController().signal,
    });
    const videoSeconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const videoCpuSeconds = (cpu.user + cpu.system) / 1e6;
    const rssAfter = process.memoryUsage().rss;

    const p50 = (v: number[]) => percentile(v, 50);
    const p95 = (v: number[]) => percentile(v, 95);
    const rows = [
      [
        `Detect, 1 MP portrait (925x1084, 1 face filling it; ${runsOf.portrait} detector run), p50 / p95`,
        `${ms(p50(detect.portrait))} / ${ms(p95(detect.portrait))}`,
        `bare detector call ${ms(p50(detect.portraitBare))}`,
        `${(p50(detect.portrait) / p50(detect.portraitBare)).toFixed(2)}x`,
      ],
      [
        `One box-only detector run (a ${firstTile.width} px tile of the 1 MP group): BlazeFace on onnxruntime, one thread (the box detector), p50`,
        ms(p50(boxRun.onnx)),
        `Human's box-only run on tfjs WASM ${ms(p50(boxRun.human))}`,
        `${(p50(boxRun.onnx) / p50(boxRun.human)).toFixed(2)}x`,
      ],
      [
        `One detector run with landmarks (the 1 MP group shrunk to ${shrunk.width}x${shrunk.height}, findFaces's whole-picture pass): BlazeFace on onnxruntime + Human's FaceMesh, p50`,
        ms(p50(wholeRun.onnx)),
        `Human's stock detect on tfjs WASM ${ms(p50(wholeRun.human))}`,
        `${(p50(wholeRun.onnx) / p50(wholeRun.human)).toFixed(2)}x`,
      ],
      [
        `Detect, 1 MP group (1540x652, ${groupFaces} faces; tiles searched, ${runsOf.group}), p50 / p95`,
        `${ms(p50(detect.group))} / ${ms(p95(detect.group))}`,
        `bare detector call ${ms(p50(detect.groupBare))}`,
        `${(p50(detect.group) / p50(detect.groupBare)).toFixed(2)}x`,
      ],
      [
        `Detect, the same 1 MP group with landmarks for every face (as a swap searches it; ${runsOf.groupWithLandmarks}), p50`,
        ms(p50(groupWithLandmarks)),
        `bare detector call ${ms(p50(detect.groupBare))}`,
        `${(p50(groupWithLandmarks) / p50(detect.groupBare)).toFixed(2)}x`,
      ],
      [
        'Detect, 1 MP group: boxes only / with landmarks, p50',
        `${ms(p50(detect.group))} / ${ms(p50(groupWithLandmarks))}`,
        `with landmarks ${ms(p50(groupWithLandmarks))}`,
        `${(p50(detect.group) / p50(groupWithLandmarks)).toFixed(2)}x`,
      ],
      [
        `Detect, 1 MP half-length portrait (1024x1024, ${halfLengthFaces} face, 0.28 of the picture; tiles searched, ${runsOf.halfLength}), p50 / p95`,
        `${ms(p50(detect.halfLength))} / ${ms(p95(detect.halfLength))}`,
        `bare detector call ${ms(p50(detect.halfLengthBare))}`,
        `${(p50(detect.halfLength) / p50(detect.halfLengthBare)).toFixed(2)}x`,
      ],
      [
        `Detect, small group picture (512x217, ${smallCounts.group} faces; tiles and closer looks, ${smallCounts.groupRuns} detector runs), p50 / p95`,
        `${ms(p50(small.group))} / ${ms(p95(small.group))}`,
        `bare detector call ${ms(p50(small.groupBare))}`,
        `${(p50(small.group) / p50(small.groupBare)).toFixed(2)}x`,
      ],
      [
        `Detect, the same picture before small pictures were tiled (whole picture only, ${smallCounts.groupBefore} faces, ${smallCounts.groupRunsBefore} detector run), p50 / p95`,
        `${ms(p50(small.groupBefore))} / ${ms(p95(small.groupBefore))}`,
        `bare detector call ${ms(p50(small.groupBare))}`,
        `${(p50(small.groupBefore) / p50(small.groupBare)).toFixed(2)}x`,
      ],
      [
        'Detect, small group picture: now / before, p50',
        `${ms(p50(small.group))} / ${ms(p50(small.groupBefore))}`,
        `before ${ms(p50(small.groupBefore))}`,
        `${(p50(small.group) / p50(small.groupBefore)).toFixed(2)}x`,
      ],
      [
        `Detect, small portrait (273x320, ${smallCounts.portrait} face filling it; ${smallCounts.portraitRuns} detector run), p50 / p95`,
        `${ms(p50(small.portrait))} / ${ms(p95(small.portrait))}`,
        `bare detector call ${ms(p50(small.portraitBare))}`,
        `${(p50(small.portrait) / p50(small.portraitBare)).toFixed(2)}x`,
      ],
      [
        `Detect, the same portrait before small pictures were tiled (${smallCounts.portraitBefore} face, ${smallCounts.portraitRunsBefore} detector run), p50 / p95`,
        `${ms(p50(small.portraitBefore))} / ${ms(p95(small.portraitBefore))}`,
        `bare detector call ${ms(p50(small.portraitBare))}`,
        `${(p50(small.portraitBefore) / p50(small.portraitBare)).toFixed(2)}x`,
      ],
      [
        'Detect, small portrait: now / before, p50',
        `${ms(p50(small.portrait))} / ${ms(p50(small.portraitBefore))}`,
        `before ${ms(p50(small.portraitBefore))}`,
        `${(p50(small.portrait) / p50(small.portraitBefore)).toFixed(2)}x`,
      ],
      [
        `Detect, the same portrait with tiles always searched (as before the whole picture decided; ${smallCounts.portraitTiled} face, ${smallCounts.portraitRunsTiled} detector runs), p50 / p95`,
        `${ms(p50(small.portraitTiled))} / ${ms(p95(small.portraitTiled))}`,
        `bare detector call ${ms(p50(small.portraitBare))}`,
        `${(p50(small.portraitTiled) / p50(small.portraitBare)).toFixed(2)}x`,
      ],
      [
        'Detect, small portrait: now / tiles always searched, p50',
        `${ms(p50(small.portrait))} / ${ms(p50(small.portraitTiled))}`,
        `tiles always ${ms(p50(small.portraitTiled))}`,
        `${(p50(small.portrait) / p50(small.portraitTiled)).toFixed(2)}x`,
      ],
      [
        `Swap step per face (warp + colour + feather + blend), ${targetFaces.length} faces, p50`,
        ms(p50(swapStep) / targetFaces.length),
        `detect step on the same picture ${ms(p50(findStep))}`,
        `${(p50(swapStep) / targetFaces.length / p50(findStep)).toFixed(2)}x`,
      ],
      [
        `Whole image swap job per face (decode, detect, swap, encode), 1 MP group, p50`,
        ms(p50(engineGroup) / targetFaces.length),
        `bare detector call ${ms(p50(detect.groupBare))}`,
        `${(p50(engineGroup) / targetFaces.length / p50(detect.groupBare)).toFixed(2)}x`,
      ],
      [
        `Video swap, 720p 25 fps, ${frames} frames, 3 faces per frame`,
        `${(frames / videoSeconds).toFixed(1)} fps (${videoSeconds.toFixed(1)} s)`,
        `ffmpeg decode + re-encode only ${(frames / passthroughSeconds).toFixed(1)} fps`,
        `${(passthroughSeconds / videoSeconds).toFixed(2)}x`,
      ],
      [
        'Video swap, CPU time of the swapping process per frame (detect + swap, ffmpeg not counted)',
        `${((videoCpuSeconds / frames) * 1000).toFixed(0)} ms/frame = ${(frames / videoCpuSeconds).toFixed(1)} fps on one free core`,
        `wall time per frame ${((videoSeconds / frames) * 1000).toFixed(0)} ms`,
        `${(videoCpuSeconds / videoSeconds).toFixed(2)}x`,
      ],
      [
        'RSS with the face models loaded (after the runs above)',
        mb(rssAfter),
        `before loading ${mb(rssBefore)}`,
        `${(rssAfter / rssBefore).toFixed(2)}x`,
      ],
      ['Model load + warm-up (once per process)', ms(loadMs), '', ''],
    ];
    const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${mb(totalmem())} RAM, load average ${loadAtStart.toFixed(1)} when it started and ${loadavg()[0]!.toFixed(1)} at the end (other work on the machine), Node ${process.version}, ffmpeg ${ffmpegBinary().includes('ffmpeg-installer') ? '4.1 static (npm)' : ffmpegBinary()}`;
    const section = [
      '## Faces (detect, swap)',
      '',
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ${RUNS} timed runs after one`,
      'untimed run, once each detector has run a dozen times (a fresh one is up to 1.7x slower for its first ten',
      'calls). BlazeFace (the detector network of @vladmandic/human 3.3) on onnxruntime-node, one thread;',
      "Human's FaceMesh on the TensorFlow.js WASM backend. A detector run with landmarks is BlazeFace then",
      'FaceMesh on each face; a box-only run is BlazeFace alone. The machine is shared, so read',
      'the ratios (same run, same machine) before the absolute figures. Targets (issue 4): detect <= 150 ms',
      'for a 1 MP photo, swap <= 100 ms per face, RSS with every model loaded <= 1.5 GB. See docs/faces.md.',
      '',
      '| What | Figure | Baseline (same run) | Ratio |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    console.log(section);

    writeSection('faces', section);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
