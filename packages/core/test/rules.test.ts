import { describe, expect, it } from 'vitest';
import {
  MEDIA_FIELD_KINDS,
  MEDIA_URL_FIELDS,
  MODERATION_LIMITS,
  moderationChargeForCall,
  outputTypeForTask,
  pollIntervalMs,
  TASK_NAMES,
  TYPICAL_MAX_GENERATION_MS,
} from '../src/index.js';

describe('output type from the task name (spec 4.2)', () => {
  it.each([
    ['text-to-video', 'video'],
    ['image-to-video', 'video'],
    ['reference-to-video', 'video'],
    ['video-to-video', 'video'],
    ['video-extend', 'video'],
    ['text-to-speech', 'audio'],
    ['text-to-music', 'audio'],
    ['audio-clean', 'audio'],
    ['tts', 'audio'],
    ['text-to-image', 'image'],
    ['image-to-image', 'image'],
    ['upscale', 'image'],
    ['Text-To-Video', 'video'],
  ] as const)('%s -> %s', (task, type) => {
    expect(outputTypeForTask(task)).toBe(type);
  });
  it('video wins over audio words ("video" is checked first)', () => {
    expect(outputTypeForTask('music-video')).toBe('video');
  });
});

describe('poll interval per output type (spec 4.3)', () => {
  it('image 3 s, video 5 s, audio 3 s', () => {
    expect([pollIntervalMs('image'), pollIntervalMs('video'), pollIntervalMs('audio')]).toEqual([
      3000, 5000, 3000,
    ]);
  });
  it('typical generation times: video up to 5 minutes', () => {
    expect(TYPICAL_MAX_GENERATION_MS.video).toBe(300_000);
  });
});

describe('media URL fields', () => {
  it('every media field has a kind, and only media fields do', () => {
    for (const task of TASK_NAMES) {
      expect(Object.keys(MEDIA_FIELD_KINDS[task]).sort(), task).toEqual([...MEDIA_URL_FIELDS[task]].sort());
    }
    expect(MEDIA_FIELD_KINDS['video-to-video'].image).toBe('video');
    expect(MEDIA_FIELD_KINDS['video-extend'].image).toBe('video');
    expect(MEDIA_FIELD_KINDS['image-to-video'].image).toBe('image');
  });
});

describe('mimeTypeForExtension', () => {
  it('maps every input format the spec names, with or without the dot, in any case', async () => {
    const { INPUT_MEDIA_FORMATS, mimeTypeForExtension } = await import('../src/index.js');
    for (const ext of Object.values(INPUT_MEDIA_FORMATS).flat()) {
      expect(mimeTypeForExtension(ext), ext).toMatch(/^(image|video|audio)\//);
    }
    expect(mimeTypeForExtension('.JPG')).toBe('image/jpeg');
    expect(mimeTypeForExtension('mkv')).toBe('video/x-matroska');
    expect(mimeTypeForExtension('m4a')).toBe('audio/mp4');
    expect(mimeTypeForExtension('exe')).toBeUndefined();
    expect(mimeTypeForExtension('constructor')).toBeUndefined();
  });
});

describe('moderation batch price (spec 4.6)', () => {
  it('first 10 calls free, then 1 cent on the call completing each batch of 10 (20, 30, ...)', () => {
    const charged = Array.from({ length: 45 }, (_, i) => i + 1).filter((n) => moderationChargeForCall(n) > 0);
    expect(charged).toEqual([20, 30, 40]);
    expect(moderationChargeForCall(20)).toBe(MODERATION_LIMITS.batchPriceMicroUsd);
    expect(moderationChargeForCall(20)).toBe(10_000);
    expect(moderationChargeForCall(21)).toBe(0);
  });

  it('refuses a call number that is not a positive integer', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => moderationChargeForCall(n)).toThrow(RangeError);
  });
});
