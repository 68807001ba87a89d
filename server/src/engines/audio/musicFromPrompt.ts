/**
 * What a music prompt asks for: tempo (a BPM number, else the genre's usual range), key and mode
 * ("in A minor", else the mood: happy/bright = major, sad/dark = minor), genre (instruments, drum
 * pattern, swing) and energy (calm .. intense: density of drums and melody).
 */
import { PromptWords } from '../image/promptWords.js';
import { seededRandom, type Random } from '../image/seededRandom.js';
import type { Wave } from './synth.js';

export type Genre =
  'ambient' | 'lofi' | 'jazz' | 'rock' | 'pop' | 'electronic' | 'classical' | 'hiphop' | 'cinematic' | 'folk';

export interface GenreStyle {
  tempo: [number, number];
  lead: Wave;
  pad: Wave;
  bass: Wave;
  /** 16 steps per bar: k = kick, s = snare, h = hat, . = rest. Empty = no drums. */
  drums: string;
  swing: number;
  /** Melody notes per beat (0.5 = one every two beats). */
  density: number;
  /** Pad chord voicing octave (MIDI of the root). */
  padOctave: number;
}

export const GENRES: Record<Genre, GenreStyle> = {
  ambient: {
    tempo: [60, 80],
    lead: 'sine',
    pad: 'triangle',
    bass: 'sine',
    drums: '',
    swing: 0,
    density: 0.5,
    padOctave: 48,
  },
  lofi: {
    tempo: [70, 90],
    lead: 'triangle',
    pad: 'triangle',
    bass: 'sine',
    drums: 'k...s..kk.k.s...',
    swing: 0.12,
    density: 1,
    padOctave: 48,
  },
  jazz: {
    tempo: [90, 140],
    lead: 'triangle',
    pad: 'sine',
    bass: 'triangle',
    drums: 'h..hh..hh..hh..h',
    swing: 0.2,
    density: 2,
    padOctave: 48,
  },
  rock: {
    tempo: [110, 150],
    lead: 'saw',
    pad: 'square',
    bass: 'saw',
    drums: 'k.h.s.h.k.k.s.h.',
    swing: 0,
    density: 1,
    padOctave: 48,
  },
  pop: {
    tempo: [95, 125],
    lead: 'square',
    pad: 'triangle',
    bass: 'triangle',
    drums: 'k.h.s.h.k.h.s.hh',
    swing: 0,
    density: 1.5,
    padOctave: 48,
  },
  electronic: {
    tempo: [120, 132],
    lead: 'saw',
    pad: 'saw',
    bass: 'square',
    drums: 'k.hhk.hhk.hhk.hh',
    swing: 0,
    density: 2,
    padOctave: 48,
  },
  classical: {
    tempo: [70, 110],
    lead: 'triangle',
    pad: 'sine',
    bass: 'triangle',
    drums: '',
    swing: 0,
    density: 2,
    padOctave: 48,
  },
  hiphop: {
    tempo: [80, 96],
    lead: 'pulse',
    pad: 'triangle',
    bass: 'sine',
    drums: 'k..hs.hkk.h.s.h.',
    swing: 0.1,
    density: 1,
    padOctave: 48,
  },
  cinematic: {
    tempo: [60, 90],
    lead: 'triangle',
    pad: 'saw',
    bass: 'saw',
    drums: 'k.......k.k.....',
    swing: 0,
    density: 0.5,
    padOctave: 43,
  },
  folk: {
    tempo: [90, 120],
    lead: 'triangle',
    pad: 'triangle',
    bass: 'triangle',
    drums: 'k...h...k...h...',
    swing: 0.05,
    density: 1,
    padOctave: 48,
  },
};

const GENRE_WORDS: Array<[Genre, string[]]> = [
  ['lofi', ['lofi', 'lo-fi', 'lo fi', 'chillhop', 'study']],
  ['hiphop', ['hip hop', 'hiphop', 'hip-hop', 'rap', 'trap', 'boom bap']],
  ['electronic', ['electronic', 'edm', 'techno', 'house', 'trance', 'synthwave', 'dance', 'club', 'disco']],
  ['rock', ['rock', 'metal', 'punk', 'grunge', 'guitar']],
  ['jazz', ['jazz', 'swing', 'bebop', 'blues', 'lounge']],
  ['classical', ['classical', 'piano', 'baroque', 'sonata', 'string quartet', 'orchestra', 'waltz']],
  ['cinematic', ['cinematic', 'epic', 'trailer', 'soundtrack', 'score', 'orchestral']],
  ['folk', ['folk', 'acoustic', 'country', 'celtic', 'bluegrass']],
  ['ambient', ['ambient', 'drone', 'meditation', 'relaxing', 'sleep', 'calm', 'spa']],
  ['pop', ['pop', 'catchy', 'upbeat', 'radio']],
];

const NOTE_NAMES: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };

export interface MusicPlan {
  genre: Genre;
  style: GenreStyle;
  bpm: number;
  /** Pitch class of the tonic, 0 = C. */
  key: number;
  mode: 'major' | 'minor';
  /** 0 calm .. 1 intense. */
  energy: number;
  random: Random;
}

export function musicFromPrompt(prompt: string, seed: number): MusicPlan {
  const p = new PromptWords(prompt);
  const random = seededRandom(seed, `music:${prompt}`);
  const genre =
    GENRE_WORDS.find(([, words]) => p.has(...words))?.[0] ??
    random.pick<Genre>(['pop', 'lofi', 'ambient', 'folk']);
  const style = GENRES[genre];

  const minorWords = [
    'sad',
    'melancholic',
    'melancholy',
    'dark',
    'minor',
    'moody',
    'somber',
    'sombre',
    'tense',
    'mysterious',
    'haunting',
    'lonely',
    'rainy',
  ];
  const majorWords = [
    'happy',
    'bright',
    'joyful',
    'cheerful',
    'major',
    'uplifting',
    'sunny',
    'hopeful',
    'playful',
    'triumphant',
  ];
  const keyMatch = /\b(?:in\s+)?([a-g])(#|♯|b|♭|\s*sharp|\s*flat)?\s*(major|minor|maj|min|m)\b/.exec(p.text);
  let key = random.int(0, 11);
  let mode: MusicPlan['mode'] = p.has(...minorWords)
    ? 'minor'
    : p.has(...majorWords)
      ? 'major'
      : random.chance(0.5)
        ? 'major'
        : 'minor';
  if (keyMatch?.[1]) {
    const accidental = keyMatch[2]?.trim() ?? '';
    key =
      (NOTE_NAMES[keyMatch[1]] ?? 0) +
      (/#|♯|sharp/.test(accidental) ? 1 : /b|♭|flat/.test(accidental) ? -1 : 0);
    key = (key + 12) % 12;
    mode = keyMatch[3]?.startsWith('min') || keyMatch[3] === 'm' ? 'minor' : 'major';
  }

  let energy = 0.5;
  if (p.has('calm', 'relaxing', 'soft', 'gentle', 'peaceful', 'slow', 'quiet', 'sleep', 'chill', 'mellow'))
    energy = 0.2;
  if (p.has('energetic', 'intense', 'fast', 'powerful', 'driving', 'aggressive', 'upbeat', 'epic', 'party'))
    energy = 0.9;

  const asked = p.numberBefore('bpm', 'beats per minute');
  const [lo, hi] = style.tempo;
  const bpm =
    asked !== undefined
      ? Math.max(40, Math.min(220, asked))
      : Math.round(lo + (hi - lo) * (energy * 0.7 + random.range(0, 0.3)));
  return { genre, style, bpm, key, mode, energy, random };
}
