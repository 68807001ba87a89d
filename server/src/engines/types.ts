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
