/**
 * reference-to-video: one video composed from the reference media. Images and videos become shots in
 * the order the prompt's @Image1/@Video1 tags give them (untagged ones follow in the order listed:
 * images, then videos); each image gets a camera move, each video is cut to its shot; shots are joined
 * with fade transitions. The first reference audio (or the first one the prompt tags with @AudioN) is
 * the soundtrack; without one, an ambient bed read from the prompt.
 * H.264/AAC MP4, default 5 s, 16:9, 720p.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { renderAmbience } from '../audio/ambience.js';
import { probe } from '../../media/ffmpeg.js';
import { sceneFromPrompt } from '../image/sceneFromPrompt.js';
import {
  EngineError,
  type EngineInput,
  type EngineOutput,
  type GenerationEngine,
  type InputMedia,
} from '../types.js';
import { cameraMoveFromPrompt, type CameraMove } from './cameraMove.js';
import { shortSide, videoSize } from './dimensions.js';
import { FPS, mp4File, mp4OutputArgs, probeVideo, runFfmpeg, seconds, writeSoundtrack } from './encode.js';
import { prepareStill, zoompanFilter } from './kenBurns.js';

const FIELD_OF = { Image: 'reference_images', Video: 'reference_videos', Audio: 'reference_audios' } as const;
const FADE = 0.4;

/** Media of a kind in the order the prompt's tags name them, then the untagged ones as listed. */
export function orderByTags(prompt: string, media: InputMedia[], tag: keyof typeof FIELD_OF): InputMedia[] {
  const field = FIELD_OF[tag];
  const items = media.filter((m) => m.field === field).sort((a, b) => a.index - b.index);
  const ordered: InputMedia[] = [];
  for (const m of prompt.matchAll(new RegExp(`@${tag}(\\d+)`, 'gi'))) {
    const item = items[Number(m[1]) - 1];
    if (item && !ordered.includes(item)) ordered.push(item);
  }
  for (const item of items) if (!ordered.includes(item)) ordered.push(item);
  return ordered;
}

/** Shots in order: @ImageN and @VideoN interleaved as the prompt mentions them, then the rest. */
function shotOrder(prompt: string, media: InputMedia[]): InputMedia[] {
  const images = orderByTags(prompt, media, 'Image');
  const videos = orderByTags(prompt, media, 'Video');
  const mentioned: Array<[number, InputMedia]> = [];
  for (const m of prompt.matchAll(/@(Image|Video)(\d+)/gi)) {
    const list = m[1]?.toLowerCase() === 'image' ? 'reference_images' : 'reference_videos';
    const item = media.find((x) => x.field === list && x.index === Number(m[2]) - 1);
    if (item && !mentioned.some(([, x]) => x === item)) mentioned.push([m.index ?? 0, item]);
  }
  const first = mentioned.map(([, x]) => x);
  return [...first, ...images.filter((x) => !first.includes(x)), ...videos.filter((x) => !first.includes(x))];
}

async function run(input: EngineInput): Promise<EngineOutput> {
  const prompt = String(input.params.prompt ?? '');
  const shots = shotOrder(prompt, input.media);
  const audios = orderByTags(prompt, input.media, 'Audio');
  if (shots.length === 0 && audios.length === 0) {
    throw new EngineError('give at least one URL in reference_images, reference_videos or reference_audios');
  }
  const { width, height } = videoSize(
    String(input.params.aspect_ratio ?? '16:9'),
    shortSide(input.params.resolution),
  );

  // Probe videos first: an unreadable one is the user's error, said before any work.
  for (const shot of shots) {
    if (shot.kind === 'video') await probeVideo(shot, input.signal);
    else if (shot.kind !== 'image')
      throw new EngineError(`${shot.field}[${shot.index}] must be an image or a video (got ${shot.mime})`);
  }
  // Default 5 s like the other video tasks (and the catalog's default_duration used for pricing).
  const total = seconds(input.params.duration, 5, 60);

  const args: string[] = [];
  const chains: string[] = [];
  const labels: string[] = [];
  const shotSeconds = shots.length ? total / shots.length : total;
  const frames = Math.max(2, Math.round(shotSeconds * FPS));
  const moves: CameraMove[] = ['zoom-in', 'pan-right', 'zoom-out', 'pan-left', 'tilt-up', 'tilt-down'];
  const first = cameraMoveFromPrompt(prompt, input.seed);
  let n = 0;
  for (const [i, shot] of shots.entries()) {
    input.signal.throwIfAborted();
    const len = (frames / FPS).toFixed(3);
    const fade = `fade=t=in:st=0:d=${FADE},fade=t=out:st=${(frames / FPS - FADE).toFixed(3)}:d=${FADE}`;
    if (shot.kind === 'image') {
      const still = join(input.workDir, `shot-${i}.png`);
      try {
        await prepareStill(sharp(shot.path).rotate(), width, height, still);
      } catch {
        throw new EngineError(`${shot.field}[${shot.index}] could not be read as an image`);
      }
      args.push('-i', still);
      const move = i === 0 ? first : (moves[(moves.indexOf(first) + i) % moves.length] ?? 'zoom-in');
      chains.push(
        `[${n}:v]${zoompanFilter(move, frames, width, height, FPS, 0.6)},setsar=1,format=yuv420p,${fade}[s${i}]`,
      );
    } else {
      args.push('-i', shot.path);
      chains.push(
        `[${n}:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},fps=${FPS},` +
          `tpad=stop_mode=clone:stop_duration=${len},trim=duration=${len},setpts=PTS-STARTPTS,setsar=1,format=yuv420p,${fade}[s${i}]`,
      );
    }
    labels.push(`[s${i}]`);
    n++;
  }
  if (shots.length === 0) {
    // Audio only: a title card in the prompt's colours carries the sound.
    const still = join(input.workDir, 'card.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#101820"/></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(still);
    args.push('-i', still);
    chains.push(
      `[${n}:v]${zoompanFilter('zoom-in', frames, width, height, FPS, 0.3)},setsar=1,format=yuv420p[s0]`,
    );
    labels.push('[s0]');
    n++;
  }
  let graph = `${chains.join(';')};${labels.join('')}concat=n=${labels.length}:v=1:a=0[v]`;

  // Soundtrack: the first reference audio, else an ambient bed.
  const soundtrack = audios[0];
  let audioLabel: string;
  if (soundtrack) {
    let info;
    try {
      info = await probe(soundtrack.path, input.signal);
    } catch {
      throw new EngineError(`${soundtrack.field}[${soundtrack.index}] could not be read as audio`);
    }
    if (!info.hasAudio) throw new EngineError(`${soundtrack.field}[${soundtrack.index}] has no audio stream`);
    args.push('-i', soundtrack.path);
    graph += `;[${n}:a]aresample=44100,aformat=channel_layouts=stereo,apad,atrim=duration=${total.toFixed(3)},afade=t=out:st=${Math.max(0, total - 1).toFixed(3)}:d=1[a]`;
    audioLabel = '[a]';
  } else {
    const bed = await writeSoundtrack(
      input.workDir,
      renderAmbience(sceneFromPrompt(prompt || 'calm day', input.seed), total),
    );
    args.push('-i', bed);
    audioLabel = `${n}:a`;
  }
  const out = join(input.workDir, 'video.mp4');
  await runFfmpeg(
    [...args, '-filter_complex', graph, '-map', '[v]', '-map', audioLabel, ...mp4OutputArgs(out, total)],
    input.signal,
  );
  return { type: 'video', files: [mp4File(out)] };
}

export const referenceToVideoEngine: GenerationEngine = {
  id: 'reference-composer',
  tasks: ['reference-to-video'],
  run,
};
