/**
 * The one interface between the worker and the engines. The worker validates the request with the
 * core's schemas, downloads every input media URL into the job's work directory, calls the engine,
 * then stores what the engine wrote and marks the generation completed (or failed and refunded).
 * Engines never touch the database, the network (except the gateway engine), billing or storage.
 */
import type { OutputType, TaskName } from '@mediagen/core';

/** One downloaded input: `field` is the request field it came from, `index` its place in an array field. */
export interface InputMedia {
  field: string;
  index: number;
  url: string;
  /** Absolute path of the downloaded file inside the work directory. */
  path: string;
  /** MIME type sniffed from the bytes, e.g. image/png, video/mp4, audio/mpeg. */
  mime: string;
  kind: 'image' | 'video' | 'audio';
}

export interface EngineInput {
  task: TaskName;
  /** Parameters already validated and defaulted by the core's schema for `task`. */
  params: Record<string, unknown>;
  media: InputMedia[];
  /** A private, empty, writable directory for this job; removed after the job. */
  workDir: string;
  /** Deterministic seed: params.seed when given, else derived from the request. */
  seed: number;
  /** The catalog entry's `engine_options` (e.g. a gateway's upstream), if any. */
  options?: Record<string, unknown>;
  signal: AbortSignal;
}

export interface OutputFile {
  /** Absolute path of a file the engine wrote inside workDir. */
  path: string;
  mime: string;
  /** File extension without the dot: png, jpeg, webp, mp4, mp3, wav, gif, webm, mkv. */
  ext: string;
}

export interface EngineOutput {
  type: OutputType;
  /** At least one file; several for text-to-image count > 1 (first is output_url). */
  files: OutputFile[];
}

export interface GenerationEngine {
  /** Stable id used in the catalog file (`engine`), e.g. "scene-painter". */
  id: string;
  tasks: readonly TaskName[];
  run(input: EngineInput): Promise<EngineOutput>;
}

/** An engine failure with a message safe to show the client (stored as the generation's error_message). */
export class EngineError extends Error {
  override name = 'EngineError';
}

// ---------------------------------------------------------------------------------------------
// Moderation (spec 4.6). Implemented in engines/moderation/, composed by engines/moderation/index.ts,
// which exports `moderationEngine: ModerationEngine`. Called synchronously by POST /moderation.

export type ModerationPolicyName = 'nsfw' | 'violence' | 'hate';

export interface VideoModerationResult {
  /** Highest score among checked frames. */
  score: number;
  framesChecked: number;
  frames: Array<{ timestamp: number; score: number }>;
}

export interface ModerationEngine {
  /** Loads every model once per process; resolves when inference is warm. Idempotent. */
  warmUp(): Promise<void>;
  /**
   * Score 0..1 that an image (bytes of a jpeg/png/webp/gif) violates the policy. `onDecoded` is
   * called once the bytes have been read as a picture, before classification: from then on a
   * failure is not the input's fault.
   */
  scoreImage(
    image: Buffer,
    policy: ModerationPolicyName,
    signal?: AbortSignal,
    onDecoded?: () => void,
  ): Promise<number>;
  /**
   * Samples `maxFrames` evenly spaced frames of the video file, scores them one by one and stops at
   * the first frame whose score reaches `threshold` (spec 4.6 rules 2 and 3).
   */
  scoreVideo(
    path: string,
    options: {
      policy: ModerationPolicyName;
      threshold: number;
      maxFrames: number;
      signal?: AbortSignal;
    },
  ): Promise<VideoModerationResult>;
  /** Score 0..1 that a text violates the policy, read natively in the spec's 12 languages. */
  scoreText(text: string, policy: ModerationPolicyName, signal?: AbortSignal): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// Faces (spec 4.4, 4.5). engines/faces/detectFaces.ts exports `detectFaces`, engines/faces/swapFace.ts
// exports `faceSwapEngine: FaceSwapEngine`; engines/faces/index.ts re-exports both plus `warmUpFaces()`.

export interface DetectedFace {
  /** Box in the source image's pixels. */
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** PNG bytes of the face cropped with a margin. */
  crop: Buffer;
}

/** Finds every face in an image file, largest first; [] when there is none. */
export type DetectFaces = (imagePath: string, signal?: AbortSignal) => Promise<DetectedFace[]>;

export interface FaceSwapInput {
  /** Path of the source face image (a crop from detect, downloaded). */
  sourcePath: string;
  /** Path of the target image, GIF or video, and its sniffed MIME type. */
  targetPath: string;
  targetMime: string;
  workDir: string;
  signal: AbortSignal;
}

export interface FaceSwapEngine {
  /** Swaps the source face into every face of the target; EngineError when the target has no face. */
  run(input: FaceSwapInput): Promise<EngineOutput>;
}
