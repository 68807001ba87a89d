/**
 * Video moderation (spec 4.6 rules 2 and 3): score the sampled frames one by one in time order, keep
 * the highest score, stop at the first frame whose score reaches the threshold. With threshold 1 only
 * a frame scoring exactly 1 stops early, so in practice every sampled frame is scored.
 */
import type { VideoModerationResult } from '../types.js';

export interface FrameSource {
  /** Timestamps (seconds) of the frames that will be scored, in order. */
  timestamps: number[];
  /** Bytes (or a decoded raster) of frame `index`; fetched only when the frame is scored. */
  frame(index: number): Promise<Buffer>;
  /** Releases what the source still holds (prefetches in flight); called once scoring is over. */
  close?(): void;
}

export type FrameScorer = (frame: Buffer, signal?: AbortSignal) => Promise<number>;

export async function scoreFrames(
  source: FrameSource,
  scorer: FrameScorer,
  threshold: number,
  signal?: AbortSignal,
): Promise<VideoModerationResult> {
  const frames: Array<{ timestamp: number; score: number }> = [];
  let score = 0;
  try {
    for (let i = 0; i < source.timestamps.length; i += 1) {
      signal?.throwIfAborted();
      const frameScore = await scorer(await source.frame(i), signal);
      frames.push({ timestamp: source.timestamps[i]!, score: frameScore });
      score = Math.max(score, frameScore);
      if (frameScore >= threshold) break;
    }
  } finally {
    source.close?.();
  }
  return { score, framesChecked: frames.length, frames };
}
