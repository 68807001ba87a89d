/**
 * Every tfjs user of a thread shares ONE engine and ONE wasm backend, initialised once (tfBackend.ts).
 * The server runs each model in a worker thread of its own (nsfwImage.ts, faceDetector.ts); the main
 * thread still loads Human itself where a benchmark calls the bare detector. Regression from when the
 * models shared the main thread: when two loaded at once, each called tf.setBackend('wasm') on the
 * uninitialised backend; tfjs then starts a second initialisation, and its engine quietly resolves the
 * first caller's setBackend with false, so the first warm-up failed with "could not initialise the
 * TensorFlow.js wasm backend". Here the moderation worker, the face worker and Human on this thread
 * all start at once, and all work.
 * This file must stay alone in its process state: the race exists only before the first initialisation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { detectFaces, warmUpFaces } from '../../src/engines/faces/index.js';
import { human } from '../../src/engines/faces/human.js';
import { nsfwImageClassifier } from '../../src/engines/moderation/nsfwImage.js';
import { fixture } from './faces/fixtures.js';
import { FIXTURES, ORDINARY_PHOTOS } from './moderation/fixtures.js';

describe('the shared TensorFlow.js wasm backend', () => {
  it('loads the moderation worker, the face worker and Human on this thread at once; all work', async () => {
    const [classifier, detector] = await Promise.all([nsfwImageClassifier(), human(), warmUpFaces()]);
    expect(tf.getBackend()).toBe('wasm');
    expect(detector.tf.getBackend()).toBe('wasm');

    const photo = await readFile(join(FIXTURES, ORDINARY_PHOTOS[0]!));
    const probabilities = await classifier.classify(photo);
    const total = Object.values(probabilities).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 3);

    const faces = await detectFaces(fixture('portrait-astronaut.jpg'));
    expect(faces).toHaveLength(1);
  }, 120_000);
});
