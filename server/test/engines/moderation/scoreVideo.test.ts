import { describe, expect, it } from 'vitest';
import { scoreFrames, type FrameSource } from '../../../src/engines/moderation/scoreVideo.js';
import { frameTimestamps } from '../../../src/engines/moderation/videoFrames.js';

/** A source whose frame i is a one-byte buffer holding i; records which frames were fetched. */
function source(count: number): FrameSource & { fetched: number[]; closed: number } {
  const fetched: number[] = [];
  return {
    fetched,
    closed: 0,
    close() {
      this.closed += 1;
    },
    timestamps: frameTimestamps(count * 2, count),
    async frame(i) {
      fetched.push(i);
      return Buffer.from([i]);
    },
  };
}

/** A scorer whose scores we control: frame i scores scores[i]. */
const scorer = (scores: number[]) => async (frame: Buffer) => scores[frame[0]!]!;

describe('scoreFrames (spec 4.6 rules 2 and 3)', () => {
  it('stops at the first frame at or above the threshold', async () => {
    const src = source(8);
    const result = await scoreFrames(src, scorer([0.1, 0.2, 0.7, 0.9, 0.1, 0.1, 0.1, 0.1]), 0.5);
    expect(result.framesChecked).toBe(3);
    expect(result.frames.map((f) => f.score)).toEqual([0.1, 0.2, 0.7]);
    expect(result.score).toBe(0.7);
    expect(src.fetched).toEqual([0, 1, 2]);
    expect(src.closed).toBe(1); // prefetches still in flight are released
  });

  it('counts a score equal to the threshold as reaching it', async () => {
    const result = await scoreFrames(source(4), scorer([0.2, 0.5, 0.9, 0.9]), 0.5);
    expect(result.framesChecked).toBe(2);
    expect(result.score).toBe(0.5);
  });

  it('scores every sampled frame with threshold 1 and reports the highest', async () => {
    const result = await scoreFrames(source(8), scorer([0.1, 0.95, 0.3, 0.99, 0.2, 0.1, 0.4, 0.5]), 1);
    expect(result.framesChecked).toBe(8);
    expect(result.score).toBe(0.99);
    expect(result.frames).toHaveLength(8);
  });

  it('scores every frame when none reaches the threshold, with their timestamps in order', async () => {
    const result = await scoreFrames(source(5), scorer([0.1, 0.2, 0.3, 0.2, 0.1]), 0.5);
    expect(result.framesChecked).toBe(5);
    expect(result.score).toBe(0.3);
    expect(result.frames.map((f) => f.timestamp)).toEqual([1, 3, 5, 7, 9]);
  });

  it('with threshold 0 stops after the first frame', async () => {
    const result = await scoreFrames(source(8), scorer([0.01, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]), 0);
    expect(result.framesChecked).toBe(1);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    const src = source(8);
    const abortingScorer = async (frame: Buffer) => {
      if (frame[0] === 1) controller.abort(new Error('client went away'));
      return 0.1;
    };
    await expect(scoreFrames(src, abortingScorer, 0.5, controller.signal)).rejects.toThrow(
      'client went away',
    );
    expect(src.fetched.length).toBeLessThanOrEqual(2);
    expect(src.closed).toBe(1);
  });
});

describe('frameTimestamps', () => {
  it('puts frame i of n in the middle of the i-th slice of the duration', () => {
    expect(frameTimestamps(60, 8)).toEqual([3.75, 11.25, 18.75, 26.25, 33.75, 41.25, 48.75, 56.25]);
    expect(frameTimestamps(10, 1)).toEqual([5]);
    expect(frameTimestamps(1, 16)).toHaveLength(16);
    expect(Math.max(...frameTimestamps(1, 16))).toBeLessThan(1);
  });

  it('falls back to the first frame when the duration is unknown', () => {
    expect(frameTimestamps(0, 8)).toEqual([0]);
    expect(frameTimestamps(Number.NaN, 8)).toEqual([0]);
  });
});
