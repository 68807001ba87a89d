/**
 * The nsfw classifier runs in a worker thread (nsfwImage.ts, nsfwWorker.ts): the main thread's event
 * loop stays free while images are classified, an aborted request leaves the queue and rejects with
 * its reason, and a closed classifier is replaced by a new worker on the next call.
 */
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeToSquareRgb } from '../../../src/engines/moderation/decodeImage.js';
import { nsfwImageClassifier } from '../../../src/engines/moderation/nsfwImage.js';
import { eventLoopTurnsDuring } from '../eventLoopTurns.js';
import { FIXTURES, ORDINARY_PHOTOS } from './fixtures.js';

const raster = async (name: string, size: number) =>
  (await decodeToSquareRgb(readFileSync(FIXTURES + name), size)).data;

describe('nsfw classifier worker', () => {
  it('keeps the main event loop turning while it classifies', async () => {
    const classifier = await nsfwImageClassifier();
    const rasters = await Promise.all(
      ORDINARY_PHOTOS.slice(0, 8).map((name) => raster(name, classifier.inputSize)),
    );
    await classifier.classifyRgb(rasters[0]!); // warm
    const { turns, value: results } = await eventLoopTurnsDuring(() =>
      Promise.all(rasters.map((r) => classifier.classifyRgb(r))),
    );
    expect(results).toHaveLength(8);
    // Eight inferences take a few hundred ms of wasm work. Run on this thread they would allow about
    // one turn per batch; in the worker the loop turns freely (thousands of times on a quiet machine).
    expect(turns).toBeGreaterThan(50);
  }, 60_000);

  it('drops an aborted request: it rejects with the reason and the others still answer', async () => {
    const classifier = await nsfwImageClassifier();
    const rgb = await raster(ORDINARY_PHOTOS[0]!, classifier.inputSize);
    const controller = new AbortController();
    const queue = Array.from({ length: 4 }, () => classifier.classifyRgb(rgb));
    const aborted = classifier.classifyRgb(rgb, controller.signal);
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    const answers = await Promise.all(queue);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await expect(classifier.classifyRgb(rgb, AbortSignal.abort(new Error('already gone')))).rejects.toThrow(
      'already gone',
    );
  }, 60_000);

  it("leaves no abort listener on a signal shared by many answered requests (a job's frames)", async () => {
    const classifier = await nsfwImageClassifier();
    const rgb = await raster(ORDINARY_PHOTOS[0]!, classifier.inputSize);
    const job = new AbortController();
    for (let i = 0; i < 3; i++) {
      await Promise.all(Array.from({ length: 6 }, () => classifier.classifyRgb(rgb, job.signal)));
    }
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
    // While requests wait, each has its listener, and aborting still reaches them.
    const pending = Array.from({ length: 3 }, () => classifier.classifyRgb(rgb, job.signal));
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(3);
    job.abort(new Error('job cancelled'));
    for (const request of pending) await expect(request).rejects.toThrow('job cancelled');
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
  }, 60_000);

  it('refuses a raster of the wrong size without reaching the worker', async () => {
    const classifier = await nsfwImageClassifier();
    await expect(classifier.classifyRgb(new Uint8Array(10))).rejects.toThrow(/expected a 224x224 RGB raster/);
  }, 60_000);

  it('starts a new worker after close(), which answers the same', async () => {
    const first = await nsfwImageClassifier();
    const rgb = await raster(ORDINARY_PHOTOS[1]!, first.inputSize);
    const before = await first.classifyRgb(rgb);
    await first.close();
    await expect(first.classifyRgb(rgb)).rejects.toThrow(/nsfwWorker exited/);
    const second = await nsfwImageClassifier();
    expect(second).not.toBe(first);
    expect(await second.classifyRgb(rgb)).toEqual(before);
  }, 60_000);
});
