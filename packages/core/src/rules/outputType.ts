import type { OutputType } from '../spec/common.js';

/**
 * The output type of a task (spec 4.2): a task containing `video` makes video; one containing
 * `audio`, `music`, `speech` or `tts` makes audio; anything else makes an image.
 */
export function outputTypeForTask(task: string): OutputType {
  const name = task.toLowerCase();
  if (name.includes('video')) return 'video';
  if (['audio', 'music', 'speech', 'tts'].some((word) => name.includes(word))) return 'audio';
  return 'image';
}
