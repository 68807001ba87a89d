/**
 * Sound synthesis primitives, written here so that music and ambience need nothing but Node: seeded
 * noise, band-limited-enough oscillators, ADSR envelopes and one-pole filters, rendered into Float32
 * buffers (stereo interleaved) that wav.ts writes and ffmpeg encodes.
 */
import type { Random } from '../image/seededRandom.js';

export const SAMPLE_RATE = 44100;

export type Wave = 'sine' | 'triangle' | 'saw' | 'square' | 'pulse';

/** One period of a waveform computed exactly; osc() reads it from a table. */
function exact(wave: Wave, p: number): number {
  switch (wave) {
    case 'sine':
      return Math.sin(2 * Math.PI * p);
    case 'triangle':
      return 1 - 4 * Math.abs(p - 0.5);
    case 'saw':
      // The first five harmonics: bright, without the harsh aliasing of a naive ramp.
      return (
        (Math.sin(2 * Math.PI * p) +
          Math.sin(4 * Math.PI * p) / 2 +
          Math.sin(6 * Math.PI * p) / 3 +
          Math.sin(8 * Math.PI * p) / 4 +
          Math.sin(10 * Math.PI * p) / 5) *
        0.55
      );
    case 'square':
      return (
        (Math.sin(2 * Math.PI * p) + Math.sin(6 * Math.PI * p) / 3 + Math.sin(10 * Math.PI * p) / 5) * 0.9
      );
    case 'pulse':
      return p < 0.25 ? 0.8 : -0.3;
  }
}

const TABLE_SIZE = 4096;
const TABLES = new Map<Wave, Float32Array>();
for (const wave of ['sine', 'triangle', 'saw', 'square', 'pulse'] as const) {
  const table = new Float32Array(TABLE_SIZE + 1);
  for (let i = 0; i <= TABLE_SIZE; i++) table[i] = exact(wave, (i % TABLE_SIZE) / TABLE_SIZE);
  TABLES.set(wave, table);
}

/** One sample of a waveform at phase (in cycles, any real), from a 4096-point table. */
export function osc(wave: Wave, phase: number): number {
  const table = TABLES.get(wave) as Float32Array;
  const x = (phase - Math.floor(phase)) * TABLE_SIZE;
  const i = Math.floor(x);
  const a = table[i] ?? 0;
  return a + ((table[i + 1] ?? 0) - a) * (x - i);
}

/** Frequency of a MIDI note number. */
export function midiToHz(note: number): number {
  return 440 * 2 ** ((note - 69) / 12);
}

/** Linear attack, exponential-ish decay to sustain, release after `length`. Returns 0..1. */
export function adsr(t: number, length: number, a: number, d: number, s: number, r: number): number {
  if (t < 0) return 0;
  if (t < a) return t / a;
  if (t < a + d) return 1 - (1 - s) * ((t - a) / d);
  if (t < length) return s;
  if (t < length + r) return s * (1 - (t - length) / r);
  return 0;
}

/** One-pole low-pass filter state, cutoff in Hz. */
export class LowPass {
  private y = 0;
  private readonly a: number;
  constructor(cutoff: number, sampleRate = SAMPLE_RATE) {
    this.a = 1 - Math.exp((-2 * Math.PI * cutoff) / sampleRate);
  }
  process(x: number): number {
    this.y += this.a * (x - this.y);
    return this.y;
  }
}

/** A stereo buffer of `seconds`, interleaved L R. */
export class StereoBuffer {
  readonly data: Float32Array;
  readonly frames: number;
  constructor(
    readonly seconds: number,
    readonly sampleRate = SAMPLE_RATE,
  ) {
    this.frames = Math.round(seconds * sampleRate);
    this.data = new Float32Array(this.frames * 2);
  }
  /** Adds a mono sample at frame i with pan -1 (left) .. 1 (right). */
  add(i: number, v: number, pan = 0): void {
    const [l, r] = panGains(pan);
    this.addGains(i, v, l, r);
  }
  /** Adds a mono sample with precomputed left/right gains (see panGains). */
  addGains(i: number, v: number, l: number, r: number): void {
    if (i < 0 || i >= this.frames) return;
    this.data[i * 2] = (this.data[i * 2] ?? 0) + v * l;
    this.data[i * 2 + 1] = (this.data[i * 2 + 1] ?? 0) + v * r;
  }
  /** Scales so that the loudest sample sits at `peak`, then soft-clips. */
  normalize(peak = 0.89): void {
    let max = 0;
    for (const v of this.data) max = Math.max(max, Math.abs(v));
    const g = max > 0 ? peak / max : 1;
    for (let i = 0; i < this.data.length; i++)
      this.data[i] = Math.tanh((this.data[i] ?? 0) * g * 1.1) / Math.tanh(1.1);
  }
  /** Fades in and out over `seconds` at each end. */
  fade(inSeconds: number, outSeconds: number): void {
    const fi = Math.round(inSeconds * this.sampleRate);
    const fo = Math.round(outSeconds * this.sampleRate);
    for (let i = 0; i < this.frames; i++) {
      let g = 1;
      if (i < fi) g = i / fi;
      if (i > this.frames - fo) g = Math.min(g, (this.frames - i) / fo);
      if (g < 1) {
        this.data[i * 2] = (this.data[i * 2] ?? 0) * g;
        this.data[i * 2 + 1] = (this.data[i * 2 + 1] ?? 0) * g;
      }
    }
  }
}

/** Equal-power gains for pan -1 (left) .. 1 (right). */
export function panGains(pan: number): [number, number] {
  return [Math.cos(((pan + 1) * Math.PI) / 4), Math.sin(((pan + 1) * Math.PI) / 4)];
}

/** White noise from a seeded stream (deterministic). */
export function noiseSource(random: Random): () => number {
  return () => random.next() * 2 - 1;
}
