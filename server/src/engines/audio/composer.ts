/**
 * The algorithmic composer behind text-to-music: a chord progression in the plan's key and mode, a
 * song form (intro, A, B, A, ..., outro), a bass line on the chord roots, a melody built from a
 * two-bar motif that repeats with variation and leans on chord tones, and a drum pattern from the
 * genre; every part synthesised sample by sample into a stereo buffer. Deterministic for a plan.
 */
import type { MusicPlan } from './musicFromPrompt.js';
import { adsr, LowPass, midiToHz, osc, panGains, SAMPLE_RATE, StereoBuffer, type Wave } from './synth.js';

const SCALES: Record<'major' | 'minor', number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
};
const PROGRESSIONS: Record<'major' | 'minor', number[][]> = {
  major: [
    [0, 4, 5, 3],
    [0, 5, 3, 4],
    [0, 3, 4, 4],
    [0, 5, 1, 4],
  ],
  minor: [
    [0, 5, 2, 6],
    [0, 3, 4, 0],
    [0, 6, 5, 6],
    [0, 3, 6, 2],
  ],
};

interface Env {
  a: number;
  d: number;
  s: number;
  r: number;
}

/** MIDI note of scale degree `degree` (may exceed 6: next octave) above `base`. */
function degreeToMidi(plan: MusicPlan, base: number, degree: number): number {
  const scale = SCALES[plan.mode];
  const octave = Math.floor(degree / 7);
  const step = scale[((degree % 7) + 7) % 7] ?? 0;
  return base + plan.key + octave * 12 + step;
}

function renderNote(
  out: StereoBuffer,
  start: number,
  length: number,
  midi: number,
  wave: Wave,
  volume: number,
  pan: number,
  env: Env,
  options: { vibrato?: number; cutoff?: number } = {},
): void {
  const sr = out.sampleRate;
  const hz = midiToHz(midi);
  const s0 = Math.round(start * sr);
  const n = Math.round((length + env.r) * sr);
  const [gl, gr] = panGains(pan);
  const filter = options.cutoff ? new LowPass(options.cutoff, sr) : undefined;
  let phase = 0;
  for (let j = 0; j < n; j++) {
    const t = j / sr;
    const vib = options.vibrato
      ? 1 + options.vibrato * Math.sin(2 * Math.PI * 5.5 * t) * Math.min(1, t * 2)
      : 1;
    phase += (hz * vib) / sr;
    let v = osc(wave, phase) * adsr(t, length, env.a, env.d, env.s, env.r) * volume;
    if (filter) v = filter.process(v);
    out.addGains(s0 + j, v, gl, gr);
  }
}

function kick(out: StereoBuffer, start: number, volume: number): void {
  const sr = out.sampleRate;
  const s0 = Math.round(start * sr);
  let phase = 0;
  for (let j = 0; j < 0.35 * sr; j++) {
    const t = j / sr;
    phase += (45 + 110 * Math.exp(-t * 25)) / sr;
    out.addGains(s0 + j, Math.sin(2 * Math.PI * phase) * Math.exp(-t * 9) * volume, 0.7, 0.7);
  }
}

function snare(out: StereoBuffer, start: number, volume: number, noise: () => number): void {
  const sr = out.sampleRate;
  const s0 = Math.round(start * sr);
  const lp = new LowPass(6000, sr);
  for (let j = 0; j < 0.2 * sr; j++) {
    const t = j / sr;
    const body = Math.sin(2 * Math.PI * 185 * t) * Math.exp(-t * 18) * 0.5;
    const rattle = lp.process(noise()) * Math.exp(-t * 16);
    out.addGains(s0 + j, (body + rattle) * volume, 0.72, 0.68);
  }
}

function hat(out: StereoBuffer, start: number, volume: number, noise: () => number): void {
  const sr = out.sampleRate;
  const s0 = Math.round(start * sr);
  const lp = new LowPass(7000, sr);
  for (let j = 0; j < 0.05 * sr; j++) {
    const t = j / sr;
    const x = noise();
    out.addGains(s0 + j, (x - lp.process(x)) * Math.exp(-t * 70) * volume, 0.55, 0.83);
  }
}

export function composeAndRender(plan: MusicPlan, seconds: number, sampleRate = SAMPLE_RATE): StereoBuffer {
  const out = new StereoBuffer(seconds, sampleRate);
  const r = plan.random;
  const noise = () => r.next() * 2 - 1;
  const beat = 60 / plan.bpm;
  const bar = beat * 4;
  const bars = Math.ceil(seconds / bar);
  const { style } = plan;
  const progA = r.pick(PROGRESSIONS[plan.mode]);
  const progB = r.pick(PROGRESSIONS[plan.mode]);

  // Motifs: two bars of (beat offset, length in beats, scale degree).
  const makeMotif = (lift: number): Array<[number, number, number]> => {
    const notes: Array<[number, number, number]> = [];
    const perBeat = Math.max(0.5, style.density * (0.6 + plan.energy * 0.6));
    const step = perBeat >= 2 ? 0.5 : perBeat >= 1 ? 1 : 2;
    let degree = r.int(0, 4) + lift;
    for (let t = 0; t < 8; t += step) {
      if (r.chance(0.2 + (1 - plan.energy) * 0.15)) continue;
      degree = Math.max(lift - 2, Math.min(lift + 9, degree + r.pick([-2, -1, -1, 0, 1, 1, 2, 3, -3])));
      const len = r.chance(0.25) ? step * 2 : step;
      notes.push([t, Math.min(len, 8 - t), degree]);
    }
    return notes;
  };
  const motifA = makeMotif(7);
  const motifB = makeMotif(9);

  const intro = bars > 8 ? 2 : 1;
  const outro = bars > 8 ? 2 : 1;
  const hasDrums = style.drums.length === 16;
  const sixteenth = beat / 4;
  for (let b = 0; b < bars; b++) {
    const t0 = b * bar;
    const section =
      b < intro ? 'intro' : b >= bars - outro ? 'outro' : Math.floor((b - intro) / 8) % 2 === 0 ? 'A' : 'B';
    const prog = section === 'B' ? progB : progA;
    const chordDegree = prog[b % 4] ?? 0;

    // Pad: a triad held for the bar.
    for (const [k, off] of [0, 2, 4].entries()) {
      renderNote(
        out,
        t0,
        bar * 0.98,
        degreeToMidi(plan, style.padOctave, chordDegree + off),
        style.pad,
        0.07,
        -0.4 + k * 0.4,
        { a: bar * 0.2, d: bar * 0.3, s: 0.7, r: bar * 0.15 },
        { cutoff: 2500 },
      );
    }
    if (section === 'intro' && b === 0) continue;

    // Bass: the chord's root, on beats 1 and 3 (every 8th note when energetic).
    const root = degreeToMidi(plan, 36, chordDegree);
    const bassStep = plan.energy > 0.7 && plan.genre !== 'ambient' ? beat / 2 : beat * 2;
    for (let t = 0; t < bar - 1e-6; t += bassStep) {
      renderNote(
        out,
        t0 + t,
        bassStep * 0.85,
        root + (plan.genre === 'jazz' && t > 0 ? r.pick([0, 7, 12, 4]) : 0),
        style.bass,
        0.22,
        0,
        { a: 0.01, d: 0.1, s: 0.7, r: 0.05 },
        { cutoff: 900 },
      );
    }

    // Melody: the section's motif, varied on its repeat.
    if (section === 'A' || section === 'B') {
      const motif = section === 'A' ? motifA : motifB;
      const half = (b - intro) % 2;
      for (const [start, len, degree] of motif) {
        if (start < half * 4 || start >= half * 4 + 4) continue;
        const variation = (b - intro) % 4 >= 2 && r.chance(0.3) ? r.pick([-1, 1, 2]) : 0;
        let d = degree + variation;
        // Lean on chord tones at the start of each beat.
        if (Number.isInteger(start)) {
          const tones = [chordDegree, chordDegree + 2, chordDegree + 4, chordDegree + 7];
          d = tones.reduce((best, x) => (Math.abs(x + 7 - d) < Math.abs(best - d) ? x + 7 : best), d);
        }
        renderNote(
          out,
          t0 + (start - half * 4) * beat,
          len * beat * 0.9,
          degreeToMidi(plan, 60, d),
          style.lead,
          0.13,
          0.15,
          { a: 0.015, d: 0.12, s: 0.6, r: 0.12 },
          { vibrato: 0.004, cutoff: 4000 },
        );
      }
    }

    // Drums.
    if (hasDrums && section !== 'intro' && section !== 'outro') {
      for (let s = 0; s < 16; s++) {
        const step = style.drums[s];
        const swing = s % 2 === 1 ? style.swing * sixteenth * 2 : 0;
        const t = t0 + s * sixteenth + swing;
        if (step === 'k') kick(out, t, 0.5);
        else if (step === 's') snare(out, t, 0.3, noise);
        else if (step === 'h' || (plan.energy > 0.7 && s % 2 === 0))
          hat(out, t, 0.12 + plan.energy * 0.06, noise);
      }
    }
  }
  out.normalize(0.89);
  out.fade(0.3, Math.min(3, seconds / 10));
  return out;
}
