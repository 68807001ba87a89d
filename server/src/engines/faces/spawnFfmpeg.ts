/**
 * Starts ffmpeg (the binary chosen by server/src/media/ffmpeg.ts) as a streaming child process, for
 * piping raw frames in or out; `done` settles when it exits, with the tail of stderr on failure. The
 * process is killed when `signal` aborts.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ffmpegBinary } from '../../media/ffmpeg.js';

export interface FfmpegProcess {
  child: ChildProcessWithoutNullStreams;
  done: Promise<void>;
}

export function spawnFfmpeg(args: string[], signal: AbortSignal): FfmpegProcess {
  const child = spawn(ffmpegBinary(), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', kill);
      if (code === 0) resolve();
      else {
        const tail = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`ffmpeg exited with ${code ?? killedBy}: ${tail}`));
      }
    });
  });
  done.catch(() => undefined);
  return { child, done };
}
