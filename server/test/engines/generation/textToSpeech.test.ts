import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { voiceForText } from '../../../src/engines/audio/detectLanguage.js';
import { textToSpeechEngine } from '../../../src/engines/audio/textToSpeech.js';
import { isVoice, listVoices } from '../../../src/engines/audio/voices.js';
import { EngineError } from '../../../src/engines/types.js';
import { cleanup, input } from './helpers.js';

afterAll(cleanup);

const speak = (params: Record<string, unknown>) => textToSpeechEngine.run(input('text-to-speech', params));

describe('text-to-speech (eSpeak NG)', () => {
  it('speaks a sentence to an MP3 whose length grows with the text', async () => {
    const short = await speak({ prompt: 'Hello there.', voice: 'en-us' });
    expect(short.type).toBe('audio');
    expect([short.files[0]!.mime, short.files[0]!.ext]).toEqual(['audio/mpeg', 'mp3']);
    const a = await probe(short.files[0]!.path);
    expect(a.hasAudio).toBe(true);
    expect(a.hasVideo).toBe(false);
    expect(a.audioCodec).toBe('mp3');
    expect(a.durationSeconds).toBeGreaterThan(0.4);
    const long = await speak({
      prompt:
        'Hello there. This is a much longer sentence, spoken slowly and clearly, so that it takes several seconds.',
      voice: 'en-us',
    });
    const b = await probe(long.files[0]!.path);
    expect(b.durationSeconds).toBeGreaterThan(a.durationSeconds * 3);
  });

  it('uses a female variant voice and detects the language when no voice is given', async () => {
    const out = await speak({ prompt: 'Bonjour à tous, je suis très heureux de vous voir aujourd’hui.' });
    expect((await probe(out.files[0]!.path)).durationSeconds).toBeGreaterThan(1);
    expect(await voiceForText('Bonjour à tous, je suis très heureux de vous voir aujourd’hui.')).toBe(
      'fr-fr',
    );
    expect(await voiceForText('Guten Morgen, wie geht es Ihnen heute? Das Wetter ist schön.')).toBe('de');
    expect(await voiceForText('Good morning, how are you today? The weather is lovely.')).toBe('en-us');
    const female = await speak({ prompt: 'Good morning.', voice: 'en-us+f3' });
    expect((await probe(female.files[0]!.path)).hasAudio).toBe(true);
  });

  it('lists its voices and rejects any other with an EngineError', async () => {
    const voices = listVoices();
    expect(voices).toContain('en-us');
    expect(voices).toContain('fr-fr');
    expect(voices).toContain('en-gb+f3');
    expect(new Set(voices).size).toBe(voices.length);
    expect(isVoice('en-us')).toBe(true);
    expect(isVoice('klingon')).toBe(false);
    await expect(speak({ prompt: 'Hello', voice: 'klingon' })).rejects.toBeInstanceOf(EngineError);
  });
});
