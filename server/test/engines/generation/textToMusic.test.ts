import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../../src/media/ffmpeg.js';
import { musicFromPrompt } from '../../../src/engines/audio/musicFromPrompt.js';
import { textToMusicEngine } from '../../../src/engines/audio/textToMusic.js';
import { EngineError } from '../../../src/engines/types.js';
import { cleanup, input } from './helpers.js';

afterAll(cleanup);

const compose = (prompt: string, seed = 5, duration = '30') =>
  textToMusicEngine.run(input('text-to-music', { prompt, duration }, { seed }));

describe('text-to-music (algorithmic composer)', () => {
  it('reads tempo, key, mode, genre and energy from the prompt', () => {
    const edm = musicFromPrompt('energetic electronic track at 128 BPM in F# minor', 1);
    expect([edm.genre, edm.bpm, edm.key, edm.mode]).toEqual(['electronic', 128, 6, 'minor']);
    expect(edm.energy).toBeGreaterThan(0.7);
    const piano = musicFromPrompt('calm happy piano', 1);
    expect([piano.genre, piano.mode]).toEqual(['classical', 'major']);
    expect(piano.energy).toBeLessThan(0.3);
    expect(musicFromPrompt('sad lofi beat', 1).mode).toBe('minor');
  });

  it('writes an MP3 of the requested duration, deterministic per seed and driven by the prompt', async () => {
    const a = await compose('upbeat pop song in C major');
    expect(a.type).toBe('audio');
    expect([a.files[0]!.mime, a.files[0]!.ext]).toEqual(['audio/mpeg', 'mp3']);
    const info = await probe(a.files[0]!.path);
    expect(info.audioCodec).toBe('mp3');
    expect(info.durationSeconds).toBeGreaterThan(29.9);
    expect(info.durationSeconds).toBeLessThan(30.2);
    const again = await compose('upbeat pop song in C major');
    expect(readFileSync(a.files[0]!.path).equals(readFileSync(again.files[0]!.path))).toBe(true);
    const other = await compose('dark ambient drone in D minor');
    expect(readFileSync(a.files[0]!.path).equals(readFileSync(other.files[0]!.path))).toBe(false);
  });

  it('refuses a duration the task does not allow', async () => {
    await expect(compose('jazz', 1, '45')).rejects.toBeInstanceOf(EngineError);
  });
});
