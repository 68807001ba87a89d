/**
 * text-to-video: the scene painter animated. The prompt's scene is painted in layers (sky and far
 * land wider than the frame, near land wider still, weather as a repeating tile) and ffmpeg moves them
 * at different speeds for a parallax camera pan, lets rain or snow fall, and changes the light over
 * time (a sunset darkens, a dawn brightens). A soundtrack read from the same scene (wind, water, rain,
 * birds, a pad chord) is synthesised alongside. H.264/AAC MP4. A procedural stand-in, not a generative
 * model (see docs/engines.md).
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { renderAmbience } from '../audio/ambience.js';
import { paintScene, type Layer } from '../image/scenePainter.js';
import { sceneFromPrompt, type Scene } from '../image/sceneFromPrompt.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { cameraMoveFromPrompt } from './cameraMove.js';
import { shortSide, videoSize } from './dimensions.js';
import { FPS, mp4File, mp4OutputArgs, runFfmpeg, seconds, writeSoundtrack } from './encode.js';

async function paintLayer(
  scene: Scene,
  layers: Layer[],
  width: number,
  height: number,
  path: string,
): Promise<void> {
  const svg = paintScene(scene, { width, height, layers });
  await sharp(Buffer.from(svg))
    .resize(width, height, { fit: 'fill' })
    .png({ compressionLevel: 1 })
    .toFile(path);
}

/** The weather layer twice, one copy above the other, so a crop can scroll through it and wrap. */
async function paintWeatherTile(scene: Scene, width: number, height: number, path: string): Promise<void> {
  const svg = paintScene(scene, { width, height, layers: ['weather'] });
  const tile = await sharp(Buffer.from(svg)).resize(width, height, { fit: 'fill' }).png().toBuffer();
  await sharp({
    create: { width, height: height * 2, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      { input: tile, top: 0, left: 0 },
      { input: tile, top: height, left: 0 },
    ])
    .png({ compressionLevel: 1 })
    .toFile(path);
}

/** Brightness curve over the clip, as an ffmpeg expression of t. */
function lightCurve(scene: Scene, d: number): string {
  switch (scene.time) {
    case 'sunset':
      return `-0.16*t/${d}`;
    case 'dawn':
      return `-0.12+0.16*t/${d}`;
    case 'night':
      return `0.02*sin(2*PI*t/${d})`;
    default:
      return scene.weather === 'storm' ? `0.25*gt(mod(t,3.7),3.55)` : `0.04*sin(PI*t/${d})`;
  }
}

async function run(input: EngineInput): Promise<EngineOutput> {
  const prompt = String(input.params.prompt ?? '').trim();
  if (!prompt) throw new EngineError('prompt must not be empty');
  const d = seconds(input.params.duration, 5, 15);
  const { width: W, height: H } = videoSize(
    String(input.params.aspect_ratio ?? '16:9'),
    shortSide(input.params.resolution),
  );
  const scene = sceneFromPrompt(prompt, input.seed);
  const move = cameraMoveFromPrompt(prompt, input.seed, ['pan-left', 'pan-right', 'tilt-up', 'tilt-down']);
  const horizontal = move === 'pan-left' || move === 'pan-right';

  // Layer sizes: the far layer travels 12% of the frame, the near one 30%.
  const bgW = horizontal ? Math.round(W * 1.12) : W;
  const bgH = horizontal ? H : Math.round(H * 1.1);
  const fgW = horizontal ? Math.round(W * 1.3) : W;
  const fgH = horizontal ? H : Math.round(H * 1.2);
  const bg = join(input.workDir, 'layer-back.png');
  const fg = join(input.workDir, 'layer-front.png');
  const wx = join(input.workDir, 'layer-weather.png');
  const hasWeather = scene.weather !== 'clear' && scene.weather !== 'cloudy';
  await Promise.all([
    paintLayer(scene, ['sky', 'far'], bgW, bgH, bg),
    paintLayer(scene, ['near'], fgW, fgH, fg),
    hasWeather ? paintWeatherTile(scene, W, H, wx) : Promise.resolve(),
  ]);
  input.signal.throwIfAborted();
  const soundtrack = await writeSoundtrack(input.workDir, renderAmbience(scene, d));

  // Progress 0..1 eased at both ends, as an expression of t.
  const p = `(0.5-0.5*cos(PI*min(t/${d},1)))`;
  const from = move === 'pan-left' || move === 'tilt-up' ? `(1-${p})` : p;
  const cropBack = horizontal
    ? `crop=${W}:${H}:x='(iw-ow)*${from}':y=0`
    : `crop=${W}:${H}:x=0:y='(ih-oh)*${from}'`;
  const cropFront = horizontal
    ? `crop=${W}:${H}:x='(iw-ow)*${from}':y=0`
    : `crop=${W}:${H}:x=0:y='(ih-oh)*${from}'`;
  // Each layer is decoded once and repeated by the loop filter (cheaper than -loop 1, which decodes the
  // PNG again for every frame); t then drives the crops.
  const frames = Math.round(d * FPS);
  const still = (i: number) => `[${i}:v]loop=loop=${frames - 1}:size=1:start=0,setpts=N/${FPS}/TB`;
  const inputs = ['-i', bg, '-i', fg];
  let graph = `${still(0)},${cropBack}[b];${still(1)},${cropFront}[f];[b][f]overlay=0:0[s0]`;
  let audioIndex = 2;
  let last = 's0';
  if (hasWeather) {
    // The weather tile (painted twice, one above the other) scrolls down (rain fast, snow slow) and wraps.
    const speed = scene.weather === 'snow' ? 0.12 : scene.weather === 'fog' ? 0.02 : 1.4;
    inputs.push('-i', wx);
    graph +=
      `;${still(2)},crop=${W}:${H}:x=0:y='ih/2-mod(t*${speed}*ih/2,ih/2)'[w]` + `;[s0][w]overlay=0:0[s1]`;
    last = 's1';
    audioIndex = 3;
  }
  graph += `;[${last}]eq=brightness='${lightCurve(scene, d)}':eval=frame,format=yuv420p[v]`;
  inputs.push('-i', soundtrack);
  const out = join(input.workDir, 'video.mp4');
  await runFfmpeg(
    [...inputs, '-filter_complex', graph, '-map', '[v]', '-map', `${audioIndex}:a`, ...mp4OutputArgs(out, d)],
    input.signal,
  );
  return { type: 'video', files: [mp4File(out)] };
}

export const textToVideoEngine: GenerationEngine = {
  id: 'scene-animator',
  tasks: ['text-to-video'],
  run,
};
