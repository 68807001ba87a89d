import type { z } from 'zod';
import { ImageToImageParams } from './imageToImage.js';
import { ImageToVideoParams } from './imageToVideo.js';
import { ReferenceToVideoParams } from './referenceToVideo.js';
import { TextToImageParams } from './textToImage.js';
import { TextToMusicParams } from './textToMusic.js';
import { TextToSpeechParams } from './textToSpeech.js';
import { TextToVideoParams } from './textToVideo.js';
import { VideoExtendParams } from './videoExtend.js';
import { VideoToVideoParams } from './videoToVideo.js';

export * from './imageToImage.js';
export * from './imageToVideo.js';
export * from './referenceToVideo.js';
export * from './textToImage.js';
export * from './textToMusic.js';
export * from './textToSpeech.js';
export * from './textToVideo.js';
export * from './videoExtend.js';
export * from './videoToVideo.js';

/** The nine tasks of spec 4.2, each with its parameter schema. */
export const TASK_PARAMS = {
  'text-to-image': TextToImageParams,
  'image-to-image': ImageToImageParams,
  'text-to-video': TextToVideoParams,
  'image-to-video': ImageToVideoParams,
  'reference-to-video': ReferenceToVideoParams,
  'video-to-video': VideoToVideoParams,
  'video-extend': VideoExtendParams,
  'text-to-speech': TextToSpeechParams,
  'text-to-music': TextToMusicParams,
} as const;

export type TaskName = keyof typeof TASK_PARAMS;
export const TASK_NAMES = Object.keys(TASK_PARAMS) as TaskName[];

export type TaskParamsInput<T extends TaskName> = z.input<(typeof TASK_PARAMS)[T]>;
export type TaskParams<T extends TaskName> = z.output<(typeof TASK_PARAMS)[T]>;

export function isTaskName(value: string): value is TaskName {
  return Object.prototype.hasOwnProperty.call(TASK_PARAMS, value);
}

/** Fields of a task whose values are media URLs the server downloads (spec 4.2 "Input media rules"). */
export const MEDIA_URL_FIELDS: Record<TaskName, readonly string[]> = {
  'text-to-image': [],
  'image-to-image': ['image'],
  'text-to-video': [],
  'image-to-video': ['image'],
  'reference-to-video': ['reference_images', 'reference_videos', 'reference_audios'],
  'video-to-video': ['image'],
  'video-extend': ['image'],
  'text-to-speech': [],
  'text-to-music': [],
};

/**
 * The kind of media each media URL field must hold (spec 4.2): for video-to-video and video-extend
 * the field is named `image` but holds the source video.
 */
export const MEDIA_FIELD_KINDS: Record<TaskName, Readonly<Record<string, 'image' | 'video' | 'audio'>>> = {
  'text-to-image': {},
  'image-to-image': { image: 'image' },
  'text-to-video': {},
  'image-to-video': { image: 'image' },
  'reference-to-video': { reference_images: 'image', reference_videos: 'video', reference_audios: 'audio' },
  'video-to-video': { image: 'video' },
  'video-extend': { image: 'video' },
  'text-to-speech': {},
  'text-to-music': {},
};
