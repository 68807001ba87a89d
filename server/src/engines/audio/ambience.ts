/**
 * A soundtrack for generated video, read from the same scene as the picture: wind, waves on water,
 * rain, a city's hum, birdsong by day and crickets at night, under a soft pad chord whose brightness
 * follows the time of day. Deterministic for the same scene.
 */
import type { Scene } from '../image/sceneFromPrompt.js';
import { seededRandom } from '../image/seededRandom.js';
import { LowPass, midiToHz, noiseSource, osc, SAMPLE_RATE, StereoBuffer } from './synth.js';

export function renderAmbience(scene: Scene, seconds: number, sampleRate = SAMPLE_RATE): StereoBuffer {
  const out = new StereoBuffer(seconds, sampleRate);
  const r = seededRandom(scene.seed, 'ambience');
  const noise = noiseSource(r);
  const windL = new LowPass(scene.weather === 'storm' ? 900 : 400, sampleRate);
  const windR = new LowPass(scene.weather === 'storm' ? 900 : 400, sampleRate);
  const rainF = new LowPass(5000, sampleRate);
  const hum = new LowPass(180, sampleRate);
  const wet = scene.weather === 'rain' || scene.weather === 'storm';
  const minor = scene.time === 'night' || scene.weather === 'storm' || scene.weather === 'rain';
  const root = 48 + r.int(0, 7);
  const chord = [root, root + (minor ? 3 : 4), root + 7, root + 12].map(midiToHz);
  const birdTimes: number[] = [];
  if (
    scene.time !== 'night' &&
    (scene.objects.has('birds') || scene.land === 'forest' || scene.land === 'hills')
  ) {
    for (let t = r.range(0.3, 1); t < seconds; t += r.range(0.6, 2)) birdTimes.push(t);
  }
  const cricketRate = scene.time === 'night' && scene.land !== 'city' ? 4.5e3 : 0;
  for (let i = 0; i < out.frames; i++) {
    const t = i / sampleRate;
    const gust = 0.55 + 0.45 * Math.sin(2 * Math.PI * 0.13 * t + scene.seed);
    let l = windL.process(noise()) * 0.9 * gust;
    let rr = windR.process(noise()) * 0.9 * (1.1 - gust * 0.2);
    if (scene.water) {
      const swell = Math.max(0, Math.sin(2 * Math.PI * 0.11 * t)) ** 2;
      const s = noise() * 0.12 * swell;
      l += s;
      rr += s * 0.8;
    }
    if (wet) {
      const s = rainF.process(noise()) * 0.25;
      l += s;
      rr += s;
    }
    if (scene.land === 'city') {
      const s = hum.process(noise()) * 1.2 + Math.sin(2 * Math.PI * 55 * t) * 0.02;
      l += s;
      rr += s;
    }
    let pad = 0;
    for (const [k, hz] of chord.entries()) pad += osc('triangle', hz * t + k * 0.25) * 0.03;
    pad *= 0.7 + 0.3 * Math.sin(2 * Math.PI * 0.07 * t);
    l += pad;
    rr += pad;
    if (cricketRate) {
      const pulse = Math.sin(2 * Math.PI * 30 * t) > 0.6 && Math.sin(2 * Math.PI * 1.1 * t) > 0 ? 1 : 0;
      const s = Math.sin(2 * Math.PI * cricketRate * t) * 0.02 * pulse;
      l += s;
      rr += s * 0.5;
    }
    out.add(i, l, -0.6);
    out.add(i, rr, 0.6);
  }
  for (const start of birdTimes) {
    const f0 = r.range(2500, 4200);
    const notes = r.int(2, 5);
    const pan = r.range(-0.8, 0.8);
    for (let n = 0; n < notes; n++) {
      const s0 = Math.round((start + n * 0.12) * sampleRate);
      const len = Math.round(0.08 * sampleRate);
      let phase = 0;
      for (let j = 0; j < len; j++) {
        const x = j / len;
        phase += (f0 * (1 + 0.3 * Math.sin(Math.PI * x))) / sampleRate;
        out.add(s0 + j, Math.sin(2 * Math.PI * phase) * Math.sin(Math.PI * x) * 0.05, pan);
      }
    }
  }
  out.normalize(0.5);
  out.fade(0.5, 0.5);
  return out;
}
