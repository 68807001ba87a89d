/**
 * Speech synthesis with eSpeak NG (GPL-3.0), always in a separate process so that this project's code
 * stays under its own licence: Debian's `espeak-ng` program when it is on PATH (or ESPEAK_NG_PATH),
 * otherwise the npm `espeak-ng` package (eSpeak NG compiled to WebAssembly with its voices embedded),
 * run by a child `node` process. Either way the result is a WAV file in the job's work directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

let systemBinary: string | null | undefined;

function espeakOnPath(): string | null {
  if (systemBinary !== undefined) return systemBinary;
  if (process.env.ESPEAK_NG_PATH) return (systemBinary = process.env.ESPEAK_NG_PATH);
  const found = spawnSync('sh', ['-c', 'command -v espeak-ng'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return (systemBinary = found.status === 0 && path ? path : null);
}

/**
 * The child process for the npm build. It gets [module URL, voice, speed, output path] as arguments and
 * the text on stdin, runs eSpeak NG inside WebAssembly with an in-memory file system, and copies the WAV
 * it wrote to the output path.
 */
const WASM_RUNNER = `
const [moduleUrl, voice, speed, out] = process.argv.slice(1);
let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const { default: ESpeakNg } = await import(moduleUrl);
const fs = await import('node:fs');
const espeak = await ESpeakNg({
  arguments: ['-v', voice, '-s', speed, '-w', '/out.wav', text.startsWith('-') ? ' ' + text : text],
  print: () => {},
  printErr: () => {},
});
fs.writeFileSync(out, espeak.FS.readFile('/out.wav'));
process.exit(0);
`;

function run(command: string, args: string[], stdin: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'], signal });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`espeak-ng exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`),
        );
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

export interface SpeakOptions {
  voice: string;
  /** Words per minute (espeak-ng default 175). */
  speed?: number;
  signal: AbortSignal;
}

/** Speaks `text` into the WAV file at `out`. */
export async function speakToWav(text: string, out: string, options: SpeakOptions): Promise<void> {
  const speed = String(Math.round(options.speed ?? 165));
  const binary = espeakOnPath();
  if (binary) {
    await run(binary, ['-v', options.voice, '-s', speed, '-w', out, '--stdin'], text, options.signal);
    return;
  }
  const moduleUrl = pathToFileURL(require.resolve('espeak-ng')).href;
  await run(
    process.execPath,
    ['--input-type=module', '-e', WASM_RUNNER, moduleUrl, options.voice, speed, out],
    text,
    options.signal,
  );
}
