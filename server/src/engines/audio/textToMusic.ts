/**
 * text-to-music: the algorithmic composer. Tempo, key and mode, genre (instruments, drum pattern,
 * swing) and energy are read from the prompt (a BPM number, "in A minor", genre and mood words); chords,
 * bass, melody and drums are synthesised to PCM in Node for 30, 60 or 120 seconds and encoded to MP3
 * with ffmpeg (libmp3lame). A procedural stand-in, not a generative model (see docs/engines.md).
 */
import { join } from 'node:path';
import { runFfmpeg } from '../video/encode.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { composeAndRender } from './composer.js';
import { musicFromPrompt } from './musicFromPrompt.js';
import { writeWav } from './wav.js';

const DURATIONS = [30, 60, 120];

async function run(input: EngineInput): Promise<EngineOutput> {
  const prompt = String(input.params.prompt ?? '').trim();
  if (!prompt) throw new EngineError('prompt must not be empty');
  const seconds = Number(input.params.duration ?? 60);
  if (!DURATIONS.includes(seconds))
    throw new EngineError(`duration must be one of "30", "60", "120" (got ${seconds})`);
  const plan = musicFromPrompt(prompt, input.seed);
  const audio = composeAndRender(plan, seconds);
  input.signal.throwIfAborted();
  const wav = join(input.workDir, 'music.wav');
  await writeWav(wav, audio.data, audio.sampleRate, 2);
  const out = join(input.workDir, 'music.mp3');
  await runFfmpeg(
    ['-i', wav, '-c:a', 'libmp3lame', '-b:a', '160k', '-compression_level', '7', '-t', String(seconds), out],
    input.signal,
  );
  return { type: 'audio', files: [{ path: out, mime: 'audio/mpeg', ext: 'mp3' }] };
}

export const textToMusicEngine: GenerationEngine = {
  id: 'algorithmic-composer',
  tasks: ['text-to-music'],
  run,
};
