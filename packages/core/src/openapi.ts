/**
 * `@mediagen/core/openapi`: the OpenAPI 3.1 document of the whole /api/v3 surface, generated from the
 * zod schemas of `spec/` with zod 4's own `z.toJSONSchema` (JSON Schema 2020-12, which is OpenAPI 3.1's
 * schema dialect), so the document cannot say something the schemas do not. What zod cannot express in
 * JSON Schema (its refinements) is added here next to the schema it belongs to, and a test checks
 * sample requests against both so the two cannot drift.
 */
import { z } from 'zod';
import { OutputType } from './spec/common.js';
import { ERROR_CODES, ErrorBody, ErrorCode, STATUS_OF_ERROR_CODE } from './spec/errors.js';
import { DetectedFaces, DetectFacesRequest, FaceSwapRequest } from './spec/faces.js';
import { Generation } from './spec/generation.js';
import { Model, MODEL_LIST_CACHE_SECONDS } from './spec/model.js';
import { ModerationRequest, ModerationResult } from './spec/moderation.js';
import { TASK_NAMES, TASK_PARAMS, type TaskName } from './spec/tasks/index.js';
import { outputTypeForTask } from './rules/outputType.js';
import { POLL_INTERVAL_MS } from './rules/pollInterval.js';

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

export interface BuildOpenApiOptions {
  /** The server URL including /api/v3. Default `http://localhost:3000/api/v3`. */
  serverUrl?: string;
}

/** The component name of each task's parameter schema, e.g. `TextToImageParams`. */
export function taskSchemaName(task: TaskName): string {
  return `${task
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Params`;
}

function deepMergeDefaults(input: unknown, output: unknown): void {
  if (!input || !output || typeof input !== 'object' || typeof output !== 'object') return;
  const inProps = (input as JsonSchema).properties as Record<string, JsonSchema> | undefined;
  const outProps = (output as JsonSchema).properties as Record<string, JsonSchema> | undefined;
  if (!inProps || !outProps) return;
  for (const [key, schema] of Object.entries(inProps)) {
    const out = outProps[key];
    if (out && 'default' in out && !('default' in schema)) schema.default = out.default;
  }
}

/** A request schema: what a client may send (defaults make fields optional, and are kept as `default`). */
export function requestSchema(schema: z.ZodType): JsonSchema {
  const input = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
  // A default behind a preprocess (durations accept 5 as "5") only shows in the output view.
  const output = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' });
  deepMergeDefaults(input, output);
  delete input.$schema;
  return input as JsonSchema;
}

/** A response schema: what a server sends (unknown extra fields allowed where the spec says "not shown"). */
export function responseSchema(schema: z.ZodType): JsonSchema {
  const output = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' });
  delete output.$schema;
  return output as JsonSchema;
}

/** zod refinements, in JSON Schema. Keyed by component name. */
const REFINEMENTS: Record<string, JsonSchema> = {
  // ModerationRequest's superRefine: exactly one of the three (an object with two matches two branches).
  ModerationRequest: {
    oneOf: [{ required: ['image_url'] }, { required: ['video_url'] }, { required: ['text'] }],
  },
  // ReferenceToVideoParams' superRefine: at least one non-empty reference array.
  ReferenceToVideoParams: {
    anyOf: ['reference_images', 'reference_videos', 'reference_audios'].map((field) => ({
      required: [field],
      properties: { [field]: { minItems: 1 } },
    })),
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { success: { const: true }, data },
    required: ['success', 'data'],
  };
}

const WHEN: Record<string, string> = {
  VALIDATION_ERROR:
    'Invalid JSON body, missing required fields, a value out of range or an invalid media URL; the message names the field and the limit',
  UNAUTHORIZED: 'Missing or invalid API key',
  PAYMENT_REQUIRED: 'Insufficient credit balance',
  FORBIDDEN: 'API key disabled or expired',
  NOT_FOUND: 'Model not found or task not supported; generation id not found',
  RATE_LIMITED: 'Rate limit exceeded for the key; Retry-After says when to try again',
  INTERNAL_ERROR:
    'The server failed (detection, face swap processing, moderation classification or status retrieval)',
};

const EXAMPLE_MESSAGE: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'count: must be at most 4',
  UNAUTHORIZED: 'missing or invalid API key',
  PAYMENT_REQUIRED: 'insufficient credit balance',
  FORBIDDEN: 'API key disabled or expired',
  NOT_FOUND: 'model "nope" not found',
  RATE_LIMITED: 'rate limit exceeded',
  INTERNAL_ERROR: 'status retrieval failed',
};

function responseName(code: ErrorCode): string {
  return code
    .toLowerCase()
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** Responses of an operation: the success one plus one $ref per error code. */
function responses(
  success: { status: string; description: string; schema: JsonSchema; headers?: JsonSchema },
  codes: ErrorCode[],
) {
  const result: Record<string, unknown> = {
    [success.status]: {
      description: success.description,
      headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' }, ...(success.headers ?? {}) },
      content: { 'application/json': { schema: envelope(success.schema) } },
    },
  };
  for (const code of codes) {
    result[String(STATUS_OF_ERROR_CODE[code])] = { $ref: `#/components/responses/${responseName(code)}` };
  }
  return result;
}

const IDEMPOTENCY_KEY = { $ref: '#/components/parameters/IdempotencyKey' };

/** Builds the OpenAPI 3.1 document of /api/v3 from the spec's schemas. */
export function buildOpenApiDocument(options: BuildOpenApiOptions = {}): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {
    Generation: responseSchema(Generation),
    Model: responseSchema(Model),
    DetectedFaces: responseSchema(DetectedFaces),
    ModerationResult: responseSchema(ModerationResult),
    ErrorBody: responseSchema(ErrorBody),
    ErrorCode: responseSchema(ErrorCode),
    OutputType: responseSchema(OutputType),
    DetectFacesRequest: requestSchema(DetectFacesRequest),
    FaceSwapRequest: requestSchema(FaceSwapRequest),
    ModerationRequest: requestSchema(ModerationRequest),
  };
  for (const task of TASK_NAMES) schemas[taskSchemaName(task)] = requestSchema(TASK_PARAMS[task]);
  for (const [name, extra] of Object.entries(REFINEMENTS)) Object.assign(schemas[name]!, extra);

  // The error body's code: any string (spec 7 "other fields: not shown"), the spec's seven documented.
  const errorBody = schemas.ErrorBody!;
  (
    (errorBody.properties as Record<string, JsonSchema>).error!.properties as Record<string, JsonSchema>
  ).code = {
    type: 'string',
    description: `One of ${ERROR_CODES.join(', ')} (see ErrorCode); clients should accept others.`,
    examples: [...ERROR_CODES],
  };

  const errorResponses: Record<string, unknown> = {};
  for (const code of ERROR_CODES) {
    errorResponses[responseName(code)] = {
      description: `${code}: ${WHEN[code]}`,
      headers: {
        'x-request-id': { $ref: '#/components/headers/RequestId' },
        ...(code === 'RATE_LIMITED' ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
      },
      content: {
        'application/json': {
          schema: ref('ErrorBody'),
          example: { success: false, error: { code, message: EXAMPLE_MESSAGE[code] } },
        },
      },
    };
  }

  const paths: OpenApiDocument['paths'] = {};

  paths['/models'] = {
    get: {
      operationId: 'listModels',
      summary: 'List the model catalog',
      description:
        'Every model with its tasks and lowest price. Also lists a face-swap entry and a moderation entry (price 0, task named like its slug), which do not follow the submit pattern. Extension: `description` and, for speech models, `voices`.',
      tags: ['Catalog'],
      responses: responses(
        {
          status: '200',
          description: 'The catalog',
          schema: { type: 'array', items: ref('Model') },
          headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } },
        },
        ['UNAUTHORIZED'],
      ),
    },
  };

  for (const task of TASK_NAMES) {
    const type = outputTypeForTask(task);
    paths[`/{model_slug}/${task}`] = {
      post: {
        operationId: `submit${taskSchemaName(task).replace(/Params$/, '')}`,
        summary: `Submit a ${task} generation (${type} output)`,
        description:
          `Asynchronous: answers 202 with status \`processing\` and \`output_url\` null; poll GET /status/{id} ` +
          `(recommended every ${POLL_INTERVAL_MS[type] / 1000} s for ${type}). Credits are charged at once and ` +
          'refunded if the generation fails. This is `POST /{model_slug}/{task}` with task = ' +
          `\`${task}\`; the catalog says which models support it.`,
        tags: ['Generation'],
        'x-task': task,
        'x-output-type': type,
        parameters: [{ $ref: '#/components/parameters/ModelSlug' }, IDEMPOTENCY_KEY],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(taskSchemaName(task)) } },
        },
        responses: responses(
          {
            status: '202',
            description: 'Accepted: the generation, status processing',
            schema: ref('Generation'),
          },
          ['VALIDATION_ERROR', 'UNAUTHORIZED', 'PAYMENT_REQUIRED', 'FORBIDDEN', 'NOT_FOUND', 'RATE_LIMITED'],
        ),
      },
    };
  }

  paths['/status/{id}'] = {
    get: {
      operationId: 'getGeneration',
      summary: 'Get a generation (poll)',
      description:
        'A failed generation is also answered 200 (success true, output_url null). Recommended polling: image 3 s, ' +
        'video 5 s, audio 3 s; bound the total time. Extension: `Prefer: wait=N` holds the answer until the ' +
        'generation finishes or N seconds pass.',
      tags: ['Generation'],
      parameters: [
        { $ref: '#/components/parameters/GenerationId' },
        { $ref: '#/components/parameters/PreferWait' },
      ],
      responses: responses({ status: '200', description: 'The generation', schema: ref('Generation') }, [
        'UNAUTHORIZED',
        'NOT_FOUND',
        'INTERNAL_ERROR',
      ]),
    },
  };

  paths['/face-swap/detect'] = {
    post: {
      operationId: 'detectFaces',
      summary: 'Detect faces (free)',
      description:
        'URLs of cropped faces; with none found, `faces` is empty and `message` is present. No credits are charged.',
      tags: ['Face swap'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('DetectFacesRequest') } } },
      responses: responses(
        { status: '200', description: 'The detected faces', schema: ref('DetectedFaces') },
        ['VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR'],
      ),
    },
  };

  paths['/face-swap'] = {
    post: {
      operationId: 'faceSwap',
      summary: 'Swap a detected face into an image, video or GIF (charged)',
      description:
        'Asynchronous like a generation: 202 with status `processing`; `type` follows the target (image or video). ' +
        'Charged at submission, refunded if the swap fails. Poll GET /status/{id}.',
      tags: ['Face swap'],
      parameters: [IDEMPOTENCY_KEY],
      requestBody: { required: true, content: { 'application/json': { schema: ref('FaceSwapRequest') } } },
      responses: responses(
        { status: '202', description: 'Accepted: the swap, status processing', schema: ref('Generation') },
        ['VALIDATION_ERROR', 'UNAUTHORIZED', 'PAYMENT_REQUIRED', 'INTERNAL_ERROR'],
      ),
    },
  };

  paths['/moderation'] = {
    post: {
      operationId: 'moderate',
      summary: 'Moderate one image, video or text (synchronous)',
      description:
        'Send exactly one of image_url, video_url, text. `nsfw` is `score >= threshold` whatever the policy. ' +
        'Video results add frames_checked and frames. $0.001 per call, the first 10 calls free, charged in batches of 10.',
      tags: ['Moderation'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ModerationRequest') } } },
      responses: responses({ status: '200', description: 'The verdict', schema: ref('ModerationResult') }, [
        'VALIDATION_ERROR',
        'UNAUTHORIZED',
        'PAYMENT_REQUIRED',
        'RATE_LIMITED',
        'INTERNAL_ERROR',
      ]),
    },
  };

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'mediagen API',
      version: '3.0.0',
      summary: 'Media generation, face swap and content moderation',
      description:
        'Generated from the zod schemas of @mediagen/core. Every response has the envelope `{success, data}`; ' +
        'errors are `{success: false, error: {code, message}}`. Server extensions documented here: ' +
        '`Idempotency-Key` on submit and face swap, `Prefer: wait=N` on GET /status/{id}, the Generation fields ' +
        '`output_urls`, `error_message`, `expires_at`, the Model fields `description` and `voices`, and the ' +
        '`x-request-id` response header.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? 'http://localhost:3000/api/v3',
        description: 'Base URL, including /api/v3',
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'Catalog' }, { name: 'Generation' }, { name: 'Face swap' }, { name: 'Moderation' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>`' },
      },
      parameters: {
        ModelSlug: {
          name: 'model_slug',
          in: 'path',
          required: true,
          description: 'A catalog slug (GET /models)',
          schema: { type: 'string', minLength: 1 },
        },
        GenerationId: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The generation id from submit or face swap',
          schema: { type: 'string', minLength: 1 },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Extension. A repeat with the same key (and body) answers the first generation instead of charging again, so a client may safely retry.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        PreferWait: {
          name: 'Prefer',
          in: 'header',
          required: false,
          description:
            'Extension. `wait=N` (N <= 60): hold the answer until the generation finishes or N seconds pass.',
          schema: { type: 'string', pattern: '^wait=\\d{1,2}$' },
          example: 'wait=30',
        },
      },
      headers: {
        RequestId: {
          description: 'Extension: the id of this request, for support and logs',
          schema: { type: 'string' },
        },
        RetryAfter: {
          description: 'Seconds (or an HTTP-date) after which to retry',
          schema: { type: 'string' },
        },
        CacheControl: {
          description: `The catalog may be cached for up to ${MODEL_LIST_CACHE_SECONDS} seconds`,
          schema: { type: 'string', const: `public, max-age=${MODEL_LIST_CACHE_SECONDS}` },
        },
      },
      responses: errorResponses,
    },
  };
}
