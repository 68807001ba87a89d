import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ERROR_CODES,
  Generation,
  Model,
  ModerationRequest,
  ReferenceToVideoParams,
  STATUS_OF_ERROR_CODE,
  TASK_NAMES,
  TASK_PARAMS,
  TextToImageParams,
  TextToMusicParams,
  TextToVideoParams,
} from '../src/index.js';
import { buildOpenApiDocument, requestSchema, responseSchema, taskSchemaName } from '../src/openapi.js';

const doc = buildOpenApiDocument();
type Operation = {
  operationId: string;
  parameters?: Array<{ $ref: string }>;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
};
const op = (path: string, method: string) => doc.paths[path]?.[method] as Operation | undefined;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (checked by @seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('the validator is live: broken documents fail', async () => {
    const noTitle = structuredClone(doc) as unknown as { info: { title?: string } };
    delete noTitle.info.title;
    expect((await new Validator().validate(noTitle)).valid).toBe(false);
    const badParameter = structuredClone(doc) as unknown as {
      components: { parameters: Record<string, { in: string }> };
    };
    badParameter.components.parameters.PreferWait!.in = 'body';
    expect((await new Validator().validate(badParameter)).valid).toBe(false);
  });

  it('takes the server URL', () => {
    expect(buildOpenApiDocument({ serverUrl: 'https://api.example.com/api/v3' }).servers).toEqual([
      { url: 'https://api.example.com/api/v3', description: 'Base URL, including /api/v3' },
    ]);
  });

  it('has every endpoint of the spec with its status codes (spec 4, 7)', () => {
    const errorsOf = (o: Operation | undefined) =>
      Object.keys(o!.responses)
        .filter((s) => Number(s) >= 400)
        .map(Number)
        .sort();
    expect(Object.keys(op('/models', 'get')!.responses)).toContain('200');
    expect(errorsOf(op('/models', 'get'))).toEqual([401]);
    for (const task of TASK_NAMES) {
      const submit = op(`/{model_slug}/${task}`, 'post');
      expect(submit, task).toBeDefined();
      expect(Object.keys(submit!.responses)).toContain('202');
      expect(errorsOf(submit)).toEqual([400, 401, 402, 403, 404, 429]);
    }
    expect(errorsOf(op('/status/{id}', 'get'))).toEqual([401, 404, 500]);
    expect(Object.keys(op('/face-swap/detect', 'post')!.responses)).toContain('200');
    expect(errorsOf(op('/face-swap/detect', 'post'))).toEqual([400, 401, 500]);
    expect(Object.keys(op('/face-swap', 'post')!.responses)).toContain('202');
    expect(errorsOf(op('/face-swap', 'post'))).toEqual([400, 401, 402, 500]);
    expect(errorsOf(op('/moderation', 'post'))).toEqual([400, 401, 402, 429, 500]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/models',
        '/status/{id}',
        '/face-swap/detect',
        '/face-swap',
        '/moderation',
        ...TASK_NAMES.map((t) => `/{model_slug}/${t}`),
      ].sort(),
    );
  });

  it('every error code has its response with the error envelope; 429 carries Retry-After', () => {
    const responses = doc.components.responses as Record<
      string,
      {
        content: Record<string, { schema: unknown; example: { error: { code: string } } }>;
        headers: Record<string, unknown>;
      }
    >;
    const codes = Object.values(responses).map((r) => r.content['application/json']!.example.error.code);
    expect(codes.sort()).toEqual([...ERROR_CODES].sort());
    for (const response of Object.values(responses))
      expect(response.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      });
    expect(responses.RateLimited!.headers).toHaveProperty('Retry-After');
    const submit = op('/{model_slug}/text-to-image', 'post')!;
    for (const code of ERROR_CODES.filter((c) => c !== 'INTERNAL_ERROR')) {
      expect(submit.responses[String(STATUS_OF_ERROR_CODE[code])]!.$ref).toMatch(
        /^#\/components\/responses\//,
      );
    }
  });

  it("every task's params schema is there, generated from its zod schema, and is the submit body", () => {
    for (const task of TASK_NAMES) {
      const name = taskSchemaName(task);
      const generated = requestSchema(TASK_PARAMS[task]);
      expect(doc.components.schemas[name], name).toMatchObject(generated);
      expect(op(`/{model_slug}/${task}`, 'post')!.requestBody!.content['application/json']!.schema).toEqual({
        $ref: `#/components/schemas/${name}`,
      });
    }
    expect(doc.components.schemas.Generation).toEqual(responseSchema(Generation));
    expect(doc.components.schemas.Model).toEqual(responseSchema(Model));
  });

  it('documents the extensions', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(Object.keys(schemas.Generation!.properties)).toEqual(
      expect.arrayContaining(['output_urls', 'error_message', 'expires_at']),
    );
    expect(Object.keys(schemas.Model!.properties)).toEqual(expect.arrayContaining(['description', 'voices']));
    const params = (o: Operation) => o.parameters!.map((p) => p.$ref);
    expect(params(op('/{model_slug}/text-to-video', 'post')!)).toContain(
      '#/components/parameters/IdempotencyKey',
    );
    expect(params(op('/face-swap', 'post')!)).toContain('#/components/parameters/IdempotencyKey');
    expect(params(op('/status/{id}', 'get')!)).toContain('#/components/parameters/PreferWait');
    expect(op('/status/{id}', 'get')!.responses['200']!.headers).toHaveProperty('x-request-id');
    expect(op('/models', 'get')!.responses['200']!.headers).toHaveProperty('Cache-Control');
  });

  it('keeps defaults that sit behind a preprocess', () => {
    const props = (name: string) =>
      (doc.components.schemas[name] as { properties: Record<string, { default?: unknown }> }).properties;
    expect(props('TextToVideoParams').duration!.default).toBe('5');
    expect(props('TextToMusicParams').duration!.default).toBe('60');
    expect(props('TextToImageParams').count!.default).toBe(1);
    expect(props('ModerationRequest').max_frames!.default).toBe(8);
  });
});

describe('the document and the zod schemas agree on the spec edges', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validatorFor = (name: string) => ajv.compile(doc.components.schemas[name]!);
  const u = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}.png`);

  const cases: Array<[string, z.ZodType, unknown[]]> = [
    [
      'TextToImageParams',
      TextToImageParams,
      [
        { prompt: 'a' },
        { prompt: 'a', count: 0 },
        { prompt: 'a', count: 1 },
        { prompt: 'a', count: 4 },
        { prompt: 'a', count: 5 },
        { prompt: 'a', count: 2.5 },
        { prompt: 'a', aspect_ratio: '21:9' },
        { prompt: 'a', output_format: 'gif' },
        { prompt: '' },
        {},
      ],
    ],
    [
      'TextToVideoParams',
      TextToVideoParams,
      [
        { prompt: 'a', duration: '15' },
        { prompt: 'a', duration: '7' },
        { prompt: 'a', resolution: '1k' },
      ],
    ],
    [
      'TextToMusicParams',
      TextToMusicParams,
      [
        { prompt: 'a', duration: '120' },
        { prompt: 'a', duration: '90' },
      ],
    ],
    [
      'ReferenceToVideoParams',
      ReferenceToVideoParams,
      [
        { prompt: 'a' },
        { prompt: 'a', reference_images: [] },
        { prompt: 'a', reference_images: u(9) },
        { prompt: 'a', reference_images: u(10) },
        { prompt: 'a', reference_videos: u(3) },
        { prompt: 'a', reference_videos: u(4) },
        { prompt: 'a', reference_audios: u(3) },
        { prompt: 'a', reference_audios: u(4) },
        { prompt: 'a', reference_images: [], reference_audios: u(1) },
        { prompt: 'a', reference_images: ['ftp://example.com/a.png'] },
        { prompt: 'a', reference_images: ['data:image/png;base64,AAAA'] },
      ],
    ],
    [
      'ModerationRequest',
      ModerationRequest,
      [
        {},
        { text: 'x' },
        { image_url: 'https://e.com/a.png' },
        { video_url: 'https://e.com/v.mp4' },
        { image_url: 'https://e.com/a.png', text: 'x' },
        { image_url: 'https://e.com/a.png', video_url: 'https://e.com/v.mp4', text: 'x' },
        { text: 'a'.repeat(20_000) },
        { text: 'a'.repeat(20_001) },
        { text: 'x', threshold: -0.01 },
        { text: 'x', threshold: 0 },
        { text: 'x', threshold: 1 },
        { text: 'x', threshold: 1.01 },
        { video_url: 'https://e.com/v.mp4', max_frames: 0 },
        { video_url: 'https://e.com/v.mp4', max_frames: 1 },
        { video_url: 'https://e.com/v.mp4', max_frames: 16 },
        { video_url: 'https://e.com/v.mp4', max_frames: 17 },
        { text: 'x', policy: 'hate' },
        { text: 'x', policy: 'spam' },
        { image_url: 'ftp://e.com/a.png' },
      ],
    ],
  ];

  for (const [name, schema, samples] of cases) {
    it.each(samples.map((sample) => [JSON.stringify(sample).slice(0, 80), sample]))(
      `${name} %s`,
      (_label, sample) => {
        expect(validatorFor(name)(sample)).toBe(schema.safeParse(sample).success);
      },
    );
  }
});
