/**
 * text-to-speech: real speech synthesised by eSpeak NG (formant synthesis: clear and intelligible,
 * robotic rather than natural) in the requested voice, or in the language detected from the text when
 * no voice is given. Encoded to MP3 (libmp3lame) with ffmpeg.
 */
import { join } from 'node:path';
import { runFfmpeg } from '../video/encode.js';
import { EngineError, type EngineInput, type EngineOutput, type GenerationEngine } from '../types.js';
import { voiceForText } from './detectLanguage.js';
import { speakToWav } from './espeak.js';
import { isVoice } from './voices.js';

async function run(input: EngineInput): Promise<EngineOutput> {
  const text = String(input.params.prompt ?? '').trim();
  if (!text) throw new EngineError('prompt must not be empty (it is the text to speak)');
  const requested = input.params.voice as string | undefined;
  if (requested !== undefined && !isVoice(requested)) {
    throw new EngineError(`voice "${requested}" is not one of this model's voices (see the model catalog)`);
  }
  const voice = requested ?? (await voiceForText(text));
  const wav = join(input.workDir, 'speech.wav');
  await speakToWav(text, wav, { voice, signal: input.signal });
  const out = join(input.workDir, 'speech.mp3');
  await runFfmpeg(
    ['-i', wav, '-c:a', 'libmp3lame', '-b:a', '96k', '-compression_level', '7', '-ar', '22050', out],
    input.signal,
  );
  return { type: 'audio', files: [{ path: out, mime: 'audio/mpeg', ext: 'mp3' }] };
}

export const textToSpeechEngine: GenerationEngine = {
  id: 'espeak-ng',
  tasks: ['text-to-speech'],
  run,
};
