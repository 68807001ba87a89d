import { describe, expect, it } from 'vitest';
import {
  DetectedFaces,
  DetectFacesRequest,
  ErrorBody,
  FaceSwapRequest,
  formatValidationError,
  Generation,
  HttpUrl,
  ImageToImageParams,
  ImageToVideoParams,
  Model,
  ModerationRequest,
  ModerationResult,
  ReferenceToVideoParams,
  TASK_NAMES,
  TASK_PARAMS,
  TextToImageParams,
  TextToMusicParams,
  TextToSpeechParams,
  TextToVideoParams,
  VideoExtendParams,
  VideoToVideoParams,
} from '../src/index.js';

const URL_OK = 'https://example.com/a.png';
const urls = (n: number, ext = 'png') =>
  Array.from({ length: n }, (_, i) => `https://example.com/${i}.${ext}`);

function message(result: { success: boolean; error?: Parameters<typeof formatValidationError>[0] }) {
  return result.success ? '' : formatValidationError(result.error!);
}

describe('text-to-image count (1 to 4, default 1)', () => {
  it.each([
    [0, false],
    [1, true],
    [4, true],
    [5, false],
    [2.5, false],
  ])('count %s -> valid %s', (count, valid) => {
    const result = TextToImageParams.safeParse({ prompt: 'a cat', count });
    expect(result.success).toBe(valid);
    if (!valid) expect(message(result)).toMatch(/^count: /);
  });
  it('names the limit', () => {
    expect(message(TextToImageParams.safeParse({ prompt: 'a', count: 5 }))).toBe('count: must be at most 4');
    expect(message(TextToImageParams.safeParse({ prompt: 'a', count: 0 }))).toBe('count: must be at least 1');
  });
  it('defaults count 1 and resolution 1k', () => {
    expect(TextToImageParams.parse({ prompt: 'a' })).toMatchObject({ count: 1, resolution: '1k' });
  });
});

describe('text-to-image enums', () => {
  it.each(['1:1', '16:9', '9:16', '4:3', '3:4'])('aspect_ratio %s ok', (aspect_ratio) => {
    expect(TextToImageParams.safeParse({ prompt: 'a', aspect_ratio }).success).toBe(true);
  });
  it.each(['21:9', '2:1', '1:1 ', ''])('aspect_ratio %j refused', (aspect_ratio) => {
    expect(TextToImageParams.safeParse({ prompt: 'a', aspect_ratio }).success).toBe(false);
  });
  it.each([
    ['resolution', '1k', true],
    ['resolution', '4k', true],
    ['resolution', '720p', false],
    ['quality', 'low', true],
    ['quality', 'high', true],
    ['quality', 'ultra', false],
    ['output_format', 'png', true],
    ['output_format', 'jpeg', true],
    ['output_format', 'webp', true],
    ['output_format', 'gif', false],
    ['output_format', 'jpg', false],
  ])('%s %s -> %s', (field, value, valid) => {
    const result = TextToImageParams.safeParse({ prompt: 'a', [field]: value });
    expect(result.success).toBe(valid);
    if (!valid) expect(message(result)).toMatch(new RegExp(`^${field}: must be one of`));
  });
  it('prompt is required and not blank', () => {
    expect(message(TextToImageParams.safeParse({}))).toBe('prompt: is required');
    expect(TextToImageParams.safeParse({ prompt: '   ' }).success).toBe(false);
  });
});

describe('image-to-image', () => {
  it('needs prompt and image', () => {
    expect(ImageToImageParams.safeParse({ prompt: 'x', image: URL_OK }).success).toBe(true);
    expect(message(ImageToImageParams.safeParse({ prompt: 'x' }))).toBe('image: is required');
    expect(message(ImageToImageParams.safeParse({ image: URL_OK }))).toBe('prompt: is required');
  });
  it('resolution is 1k/2k/4k, output aspect ratio any W:H', () => {
    expect(
      ImageToImageParams.safeParse({ prompt: 'x', image: URL_OK, resolution: '2k', aspect_ratio: '21:9' })
        .success,
    ).toBe(true);
    expect(ImageToImageParams.safeParse({ prompt: 'x', image: URL_OK, resolution: '1080p' }).success).toBe(
      false,
    );
    expect(ImageToImageParams.safeParse({ prompt: 'x', image: URL_OK, aspect_ratio: 'wide' }).success).toBe(
      false,
    );
  });
});

describe('text-to-video durations and enums', () => {
  it.each(['4', '5', '6', '8', '10', '12', '15'])('duration %s ok', (duration) => {
    expect(TextToVideoParams.safeParse({ prompt: 'a', duration }).success).toBe(true);
  });
  it.each(['3', '7', '9', '16', '0', '', 'five'])('duration %j refused', (duration) => {
    const result = TextToVideoParams.safeParse({ prompt: 'a', duration });
    expect(result.success).toBe(false);
    expect(message(result)).toMatch(/^duration: must be one of "4", "5"/);
  });
  it('accepts a number and turns it into the spec string', () => {
    expect(TextToVideoParams.parse({ prompt: 'a', duration: 10 }).duration).toBe('10');
    expect(TextToVideoParams.safeParse({ prompt: 'a', duration: 7 }).success).toBe(false);
  });
  it('defaults duration 5 and resolution 720p', () => {
    expect(TextToVideoParams.parse({ prompt: 'a' })).toMatchObject({ duration: '5', resolution: '720p' });
  });
  it.each([
    ['aspect_ratio', '16:9', true],
    ['aspect_ratio', '9:16', true],
    ['aspect_ratio', '1:1', true],
    ['aspect_ratio', '4:3', false],
    ['resolution', '480p', true],
    ['resolution', '1080p', true],
    ['resolution', '4k', true],
    ['resolution', '1k', false],
    ['resolution', '360p', false],
  ])('%s %s -> %s', (field, value, valid) => {
    expect(TextToVideoParams.safeParse({ prompt: 'a', [field]: value }).success).toBe(valid);
  });
});

describe('image-to-video', () => {
  it('needs image; prompt optional; defaults duration 5 and 720p', () => {
    expect(ImageToVideoParams.parse({ image: URL_OK })).toMatchObject({ duration: '5', resolution: '720p' });
    expect(message(ImageToVideoParams.safeParse({ prompt: 'move' }))).toBe('image: is required');
  });
  it('durations are whole seconds (allowed set not shown by the spec)', () => {
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '1' }).success).toBe(true);
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '9999' }).success).toBe(true);
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '0' }).success).toBe(false);
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '10000' }).success).toBe(false);
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '5.5' }).success).toBe(false);
    expect(ImageToVideoParams.safeParse({ image: URL_OK, duration: '-5' }).success).toBe(false);
  });
});

describe('reference-to-video references (9 / 3 / 3, at least one array)', () => {
  const base = { prompt: 'use @Image1' };
  it.each([
    ['reference_images', 9, true],
    ['reference_images', 10, false],
    ['reference_videos', 3, true],
    ['reference_videos', 4, false],
    ['reference_audios', 3, true],
    ['reference_audios', 4, false],
  ])('%s with %i URLs -> %s', (field, n, valid) => {
    const result = ReferenceToVideoParams.safeParse({ ...base, [field]: urls(n) });
    expect(result.success).toBe(valid);
    if (!valid) expect(message(result)).toBe(`${field}: must hold at most ${n - 1} URLs`);
  });
  it('all three at their maximum together is fine', () => {
    const all = {
      ...base,
      reference_images: urls(9),
      reference_videos: urls(3, 'mp4'),
      reference_audios: urls(3, 'mp3'),
    };
    expect(ReferenceToVideoParams.safeParse(all).success).toBe(true);
  });
  it('refuses none of the arrays, and only empty arrays', () => {
    expect(message(ReferenceToVideoParams.safeParse(base))).toMatch(/at least one URL in reference_images/);
    expect(
      ReferenceToVideoParams.safeParse({
        ...base,
        reference_images: [],
        reference_videos: [],
        reference_audios: [],
      }).success,
    ).toBe(false);
  });
  it('each reference must be an http(s) URL', () => {
    const result = ReferenceToVideoParams.safeParse({
      ...base,
      reference_images: [URL_OK, 'ftp://example.com/a.png'],
    });
    expect(result.success).toBe(false);
    expect(message(result)).toMatch(/^reference_images\.1: must be a public http\(s\) URL/);
  });
});

describe('video-to-video and video-extend (the video field is named image)', () => {
  it('video-to-video needs prompt and image', () => {
    expect(VideoToVideoParams.safeParse({ prompt: 'anime', image: 'https://e.com/v.mp4' }).success).toBe(
      true,
    );
    expect(message(VideoToVideoParams.safeParse({ prompt: 'anime' }))).toBe('image: is required');
    expect(
      VideoToVideoParams.safeParse({ prompt: 'anime', image: 'https://e.com/v.mp4', resolution: '2k' })
        .success,
    ).toBe(false);
  });
  it('video-extend needs image only', () => {
    expect(VideoExtendParams.safeParse({ image: 'https://e.com/v.mp4' }).success).toBe(true);
    expect(VideoExtendParams.safeParse({ image: 'https://e.com/v.mp4', duration: 3 }).success).toBe(true);
    expect(message(VideoExtendParams.safeParse({ prompt: 'on' }))).toBe('image: is required');
  });
});

describe('text-to-speech and text-to-music', () => {
  it('text-to-speech needs a prompt; voice is a free voice id', () => {
    expect(TextToSpeechParams.safeParse({ prompt: 'hello', voice: 'en-us-1' }).success).toBe(true);
    expect(TextToSpeechParams.safeParse({ voice: 'x' }).success).toBe(false);
    expect(TextToSpeechParams.safeParse({ prompt: 'hello', voice: '' }).success).toBe(false);
  });
  it.each([
    ['30', true],
    ['60', true],
    ['120', true],
    [60, true],
    ['90', false],
    ['15', false],
  ])('music duration %j -> %s', (duration, valid) => {
    expect(TextToMusicParams.safeParse({ prompt: 'jazz', duration }).success).toBe(valid);
  });
  it('music defaults to 60 s', () => {
    expect(TextToMusicParams.parse({ prompt: 'jazz' }).duration).toBe('60');
  });
});

describe('http(s) media URLs only', () => {
  it.each(['https://example.com/a.png', 'http://example.com/a.png', 'http://127.0.0.1:8080/x.jpg'])(
    'accepts %s',
    (url) => {
      expect(HttpUrl.safeParse(url).success).toBe(true);
    },
  );
  it.each([
    'ftp://example.com/a.png',
    'data:image/png;base64,iVBORw0KGgo=',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'example.com/a.png',
    '',
    'https://',
  ])('refuses %j', (url) => {
    expect(HttpUrl.safeParse(url).success).toBe(false);
  });
  it('refuses non-strings', () => {
    expect(HttpUrl.safeParse(42).success).toBe(false);
  });
  it('refuses a user name or password in the URL at submit (a public URL needs none)', () => {
    for (const url of ['https://user:secret@example.com/a.png', 'https://user@example.com/a.png']) {
      expect(message(ImageToImageParams.safeParse({ prompt: 'x', image: url }))).toBe(
        'image: must not carry a user name or password (the URL must be public)',
      );
    }
  });
  it('refuses text PostgreSQL cannot store (NUL, unpaired surrogates), naming the field', () => {
    for (const bad of ['a\u0000b', 'lone \ud800 high', 'lone \udc00 low', 'end \ud83d']) {
      expect(message(TextToImageParams.safeParse({ prompt: bad }))).toBe(
        'prompt: must not contain NUL (\\u0000) characters or unpaired UTF-16 surrogates',
      );
      expect(message(ImageToImageParams.safeParse({ prompt: 'x', image: `${URL_OK}?q=${bad}` }))).toMatch(
        /^image: must not contain NUL/,
      );
      expect(message(TextToSpeechParams.safeParse({ prompt: 'x', voice: bad }))).toMatch(
        /^voice: must not contain NUL/,
      );
    }
    // A paired surrogate (an emoji) and other control characters are ordinary text.
    expect(TextToImageParams.safeParse({ prompt: 'a cat \ud83d\ude00 \u0001\u001b[31m' }).success).toBe(true);
  });
  it('face swap and detect bodies use it', () => {
    expect(DetectFacesRequest.safeParse({ source_image: URL_OK }).success).toBe(true);
    expect(message(DetectFacesRequest.safeParse({}))).toBe('source_image: is required');
    expect(
      FaceSwapRequest.safeParse({ source_face_url: URL_OK, target_media: 'https://e.com/t.gif' }).success,
    ).toBe(true);
    expect(FaceSwapRequest.safeParse({ source_face_url: URL_OK }).success).toBe(false);
    expect(FaceSwapRequest.safeParse({ source_face_url: 'data:x', target_media: URL_OK }).success).toBe(
      false,
    );
  });
});

describe('moderation request', () => {
  it('needs exactly one of image_url, video_url, text', () => {
    expect(ModerationRequest.safeParse({ image_url: URL_OK }).success).toBe(true);
    expect(ModerationRequest.safeParse({ video_url: 'https://e.com/v.mp4' }).success).toBe(true);
    expect(ModerationRequest.safeParse({ text: 'hello' }).success).toBe(true);
    expect(message(ModerationRequest.safeParse({}))).toMatch(
      /exactly one of image_url, video_url, text \(none/,
    );
    expect(message(ModerationRequest.safeParse({ image_url: URL_OK, text: 'x' }))).toMatch(
      /got image_url and text/,
    );
    expect(ModerationRequest.safeParse({ image_url: URL_OK, video_url: URL_OK, text: 'x' }).success).toBe(
      false,
    );
  });
  it.each([
    [20_000, true],
    [20_001, false],
  ])('text of %i characters -> %s', (n, valid) => {
    const result = ModerationRequest.safeParse({ text: 'a'.repeat(n) });
    expect(result.success).toBe(valid);
    if (!valid) expect(message(result)).toBe('text: must be at most 20000 characters');
  });
  it.each([
    [-0.01, false],
    [0, true],
    [0.5, true],
    [1, true],
    [1.01, false],
  ])('threshold %s -> %s', (threshold, valid) => {
    expect(ModerationRequest.safeParse({ text: 'x', threshold }).success).toBe(valid);
  });
  it.each([
    [0, false],
    [1, true],
    [16, true],
    [17, false],
    [2.5, false],
  ])('max_frames %s -> %s', (max_frames, valid) => {
    const result = ModerationRequest.safeParse({ video_url: 'https://e.com/v.mp4', max_frames });
    expect(result.success).toBe(valid);
    if (!valid) expect(message(result)).toMatch(/^max_frames: must be/);
  });
  it.each([
    ['nsfw', true],
    ['violence', true],
    ['hate', true],
    ['spam', false],
    ['NSFW', false],
  ])('policy %s -> %s', (policy, valid) => {
    expect(ModerationRequest.safeParse({ text: 'x', policy }).success).toBe(valid);
  });
  it('defaults policy nsfw, threshold 0.5, max_frames 8', () => {
    expect(ModerationRequest.parse({ text: 'x' })).toMatchObject({
      policy: 'nsfw',
      threshold: 0.5,
      max_frames: 8,
    });
  });
  it('media URLs must be http(s)', () => {
    expect(message(ModerationRequest.safeParse({ image_url: 'data:image/png;base64,AAA' }))).toMatch(
      /^image_url: must be a public http\(s\) URL/,
    );
    expect(ModerationRequest.safeParse({ video_url: 'ftp://e.com/v.mp4' }).success).toBe(false);
  });
});

describe('responses', () => {
  const gen = {
    id: 'gen_1',
    status: 'processing',
    model: 'Flux',
    type: 'image',
    output_url: null,
    created_at: '2026-01-01T00:00:00Z',
  };
  it('Generation: spec fields, extensions and unknown fields pass', () => {
    expect(Generation.safeParse(gen).success).toBe(true);
    const full = {
      ...gen,
      status: 'completed',
      output_url: 'https://e.com/f.png',
      output_urls: ['https://e.com/f.png'],
      error_message: null,
      expires_at: '2026-01-08T00:00:00Z',
      extra: 1,
    };
    expect(Generation.parse(full)).toMatchObject({ extra: 1, output_urls: ['https://e.com/f.png'] });
  });
  it.each(['queued', 'processing', 'completed', 'failed'])('Generation status %s ok', (status) => {
    expect(Generation.safeParse({ ...gen, status }).success).toBe(true);
  });
  it('Generation refuses unknown status, type, and a missing output_url', () => {
    expect(Generation.safeParse({ ...gen, status: 'done' }).success).toBe(false);
    expect(Generation.safeParse({ ...gen, type: 'gif' }).success).toBe(false);
    const { output_url: _omit, ...noOutput } = gen;
    expect(Generation.safeParse(noOutput).success).toBe(false);
  });
  it('Model: every catalog type, null price', () => {
    for (const type of ['image', 'video', 'audio', 'face-swap', 'moderation']) {
      expect(
        Model.safeParse({ slug: 's', name: 'S', type, tasks: ['t'], price_from_usd: null }).success,
      ).toBe(true);
    }
    expect(
      Model.safeParse({ slug: 's', name: 'S', type: 'text', tasks: [], price_from_usd: 0 }).success,
    ).toBe(false);
    expect(
      Model.safeParse({
        slug: 's',
        name: 'S',
        type: 'audio',
        tasks: ['text-to-speech'],
        price_from_usd: 0.01,
        voices: ['a'],
      }).success,
    ).toBe(true);
  });
  it('DetectedFaces: faces, with a message when none', () => {
    expect(DetectedFaces.safeParse({ faces: [URL_OK] }).success).toBe(true);
    expect(DetectedFaces.safeParse({ faces: [], message: 'No faces detected' }).success).toBe(true);
    expect(DetectedFaces.safeParse({ message: 'x' }).success).toBe(false);
  });
  it('ModerationResult: image/text shape and video shape', () => {
    const common = { nsfw: false, score: 0.02, threshold: 0.5, policy: 'nsfw', duration_ms: 420 };
    expect(ModerationResult.safeParse({ ...common, media_type: 'image' }).success).toBe(true);
    expect(ModerationResult.safeParse({ ...common, media_type: 'text' }).success).toBe(true);
    expect(ModerationResult.safeParse({ ...common, media_type: 'video' }).success).toBe(false);
    expect(
      ModerationResult.safeParse({
        ...common,
        media_type: 'video',
        frames_checked: 2,
        frames: [
          { timestamp: 0, score: 0.01 },
          { timestamp: 1.5, score: 0.02 },
        ],
      }).success,
    ).toBe(true);
    expect(ModerationResult.safeParse({ ...common, score: 1.2, media_type: 'image' }).success).toBe(false);
    expect(ModerationResult.safeParse({ ...common, media_type: 'audio' }).success).toBe(false);
  });
  it('ErrorBody: code and message, unknown fields pass', () => {
    expect(
      ErrorBody.safeParse({ success: false, error: { code: 'NOT_FOUND', message: 'no', details: [] } })
        .success,
    ).toBe(true);
    expect(ErrorBody.safeParse({ success: false, error: { message: 'no' } }).success).toBe(false);
    expect(ErrorBody.safeParse({ success: true, data: {} }).success).toBe(false);
  });
});

describe('the nine tasks', () => {
  it('are all there', () => {
    expect(TASK_NAMES.sort()).toEqual(
      [
        'image-to-image',
        'image-to-video',
        'reference-to-video',
        'text-to-image',
        'text-to-music',
        'text-to-speech',
        'text-to-video',
        'video-extend',
        'video-to-video',
      ].sort(),
    );
    for (const name of TASK_NAMES) expect(TASK_PARAMS[name]).toBeDefined();
  });
});

describe('validation messages: missing versus wrong type', () => {
  it.each([
    [TextToImageParams, { prompt: 'a', count: 'two' }, 'count: must be a number'],
    [TextToImageParams, { prompt: 42 }, 'prompt: must be a string'],
    [TextToImageParams, { prompt: 'a', resolution: 3 }, 'resolution: must be one of "1k", "2k", "4k"'],
    [ImageToImageParams, { prompt: 'a', image: 7 }, 'image: must be a string holding an http(s) URL'],
    [
      ReferenceToVideoParams,
      { prompt: 'a', reference_images: 'https://e.com/a.png' },
      'reference_images: must be an array of image URLs',
    ],
    [ModerationRequest, { text: 'x', threshold: '0.5' }, 'threshold: must be a number'],
    [ModerationRequest, { text: 'x', policy: 1 }, 'policy: must be one of "nsfw", "violence", "hate"'],
  ] as const)('%#: wrong type says what is expected', (schema, input, expected) => {
    // zod also runs length checks on a string given for an array, hence startsWith.
    expect(formatValidationError(schema.safeParse(input).error!).startsWith(expected)).toBe(true);
  });
  it('a missing required field says it is required', () => {
    expect(formatValidationError(ImageToImageParams.safeParse({}).error!)).toBe(
      'prompt: is required; image: is required',
    );
  });
  it('reportInput parsing also reads well', () => {
    const error = TextToImageParams.safeParse({}, { reportInput: true }).error!;
    expect(formatValidationError(error)).toBe('prompt: is required');
  });
});
