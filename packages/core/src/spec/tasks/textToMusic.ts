import { z } from 'zod';
import { Prompt, secondsString, Seed } from '../common.js';

export const TEXT_TO_MUSIC_DURATIONS = ['30', '60', '120'] as const;

/** text-to-music parameters (spec 4.2). */
export const TextToMusicParams = z.object({
  prompt: Prompt.describe('Genre, mood, instruments, tempo'),
  duration: secondsString(TEXT_TO_MUSIC_DURATIONS).default('60').describe('Length in seconds'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
