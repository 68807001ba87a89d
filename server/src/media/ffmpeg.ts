/**
 * Where ffmpeg and ffprobe come from, and a small promise wrapper to run them.
 * Order: FFMPEG_PATH / FFPROBE_PATH, then a system binary on PATH (Debian's 5.1 is newer and has more
 * encoders), then the static binaries shipped inside @ffmpeg-installer/ffmpeg and
 * @ffprobe-installer/ffprobe (so a machine with only Node and npm works).
 */
import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function onPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

function fromPackage(pkg: string): string | undefined {
  try {
    return (require(pkg) as { path: string }).path;
  } catch {
    return undefined;
  }
}

let ffmpegPath: string | undefined;
let ffprobePath: string | undefined;

export function ffmpegBinary(): string {
  ffmpegPath ??= process.env.FFMPEG_PATH || onPath('ffmpeg') || fromPackage('@ffmpeg-installer/ffmpeg');
  if (!ffmpegPath) throw new Error('ffmpeg not found: set FFMPEG_PATH or install @ffmpeg-installer/ffmpeg');
  return ffmpegPath;
}

export function ffprobeBinary(): string {
  ffprobePath ??= process.env.FFPROBE_PATH || onPath('ffprobe') || fromPackage('@ffprobe-installer/ffprobe');
  if (!ffprobePath)
    throw new Error('ffprobe not found: set FFPROBE_PATH or install @ffprobe-installer/ffprobe');
  return ffprobePath;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

function run(binary: string, args: string[], signal?: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, signal, windowsHide: true },
      (error, stdout, stderr) => {
        const err = stderr.toString('utf8');
        if (error) {
          const tail = err.trim().split('\n').slice(-4).join(' | ');
          reject(new Error(`${binary.split('/').pop()} failed: ${tail || error.message}`));
        } else {
          resolve({ stdout, stderr: err });
        }
      },
    );
  });
}

/** Runs ffmpeg with `-hide_banner -loglevel error -y` prepended. */
export function ffmpeg(args: string[], signal?: AbortSignal): Promise<RunResult> {
  return run(ffmpegBinary(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], signal);
}

export interface ProbeResult {
  durationSeconds: number;
  width?: number;
  height?: number;
  fps?: number;
  hasVideo: boolean;
  hasAudio: boolean;
  formatName: string;
  videoCodec?: string;
  audioCodec?: string;
  frameCount?: number;
}

function parseRate(rate: string | undefined): number | undefined {
  if (!rate) return undefined;
  const [n, d] = rate.split('/').map(Number);
  if (!n || !d) return undefined;
  return n / d;
}

/** Probes a media file with ffprobe. */
export async function probe(path: string, signal?: AbortSignal): Promise<ProbeResult> {
  const { stdout } = await run(
    ffprobeBinary(),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
    signal,
  );
  const info = JSON.parse(stdout.toString('utf8')) as {
    format?: { duration?: string; format_name?: string };
    streams?: Array<{
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      avg_frame_rate?: string;
      r_frame_rate?: string;
      duration?: string;
      nb_frames?: string;
    }>;
  };
  const streams = info.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(info.format?.duration ?? video?.duration ?? audio?.duration ?? 0);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    width: video?.width,
    height: video?.height,
    fps: parseRate(video?.avg_frame_rate) ?? parseRate(video?.r_frame_rate),
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    formatName: info.format?.format_name ?? '',
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    frameCount: video?.nb_frames ? Number(video.nb_frames) : undefined,
  };
}
