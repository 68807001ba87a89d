/**
 * The model catalog: server/catalog.json (or MEDIAGEN_CATALOG), edited by the operator. It says which
 * models exist, their tasks, which engine serves each task and at what price. Validated with zod at
 * start; GET /models is derived from it (spec 2.2).
 */
import { readFileSync } from 'node:fs';
import { isTaskName, ModelType, TASK_NAMES, type TaskName } from '@mediagen/core';
import { z } from 'zod';

const Usd = z.number().min(0).max(1000);
const PerResolution = z.union([Usd, z.record(z.string(), Usd)]);

/** How a task's price is computed (billing/pricing.ts). */
export const Pricing = z.union([
  z.strictObject({ per_request_usd: Usd }),
  /** Images: price times `count`. */
  z.strictObject({ per_output_usd: Usd }),
  /** Video/music: price per second of output, optionally per resolution. */
  z.strictObject({ per_second_usd: PerResolution }),
]);
export type Pricing = z.infer<typeof Pricing>;

const TaskEntry = z.strictObject({
  /** Engine id (registry.ts): an engine's `id`, its module name like "image/textToImage", or "gateway". */
  engine: z.string().min(1).optional(),
  pricing: Pricing,
  /** Allowed `duration` values where the spec leaves them to the model ("not shown"). */
  durations: z.array(z.string().regex(/^\d+$/)).min(1).optional(),
  /** Resolution used for pricing when the request gives none (default 720p, the spec's default). */
  default_resolution: z.string().optional(),
  /** Duration used for pricing when the request gives none. */
  default_duration: z.string().regex(/^\d+$/).optional(),
});

const GenerationModel = z.strictObject({
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/, { error: 'slug must be lowercase letters, digits, . _ -' }),
  name: z.string().min(1),
  type: z.enum(['image', 'video', 'audio']),
  description: z.string().optional(),
  engine: z.string().min(1).optional(),
  engine_options: z.record(z.string(), z.unknown()).optional(),
  /** Voice ids for text-to-speech; when absent the built-in engine's voices are listed. */
  voices: z.array(z.string()).optional(),
  tasks: z.record(z.string(), TaskEntry),
});

const FaceSwapModel = z.strictObject({
  slug: z.string().min(1),
  name: z.string().min(1),
  type: z.literal('face-swap'),
  description: z.string().optional(),
  tasks: z.array(z.string()).min(1),
  pricing: z.strictObject({ image_usd: Usd, video_per_second_usd: Usd }),
});

const ModerationModel = z.strictObject({
  slug: z.string().min(1),
  name: z.string().min(1),
  type: z.literal('moderation'),
  description: z.string().optional(),
});

const CatalogFile = z.strictObject({
  $comment: z.string().optional(),
  models: z.array(z.union([GenerationModel, FaceSwapModel, ModerationModel])),
});

export type GenerationModelEntry = z.infer<typeof GenerationModel>;
export type TaskEntry = z.infer<typeof TaskEntry>;
export type FaceSwapEntry = z.infer<typeof FaceSwapModel>;
export type ModerationEntry = z.infer<typeof ModerationModel>;

export interface Catalog {
  models: GenerationModelEntry[];
  faceSwap: FaceSwapEntry;
  moderation: ModerationEntry;
  bySlug: Map<string, GenerationModelEntry>;
}

export class CatalogError extends Error {
  override name = 'CatalogError';
}

export function parseCatalog(raw: unknown, source = 'catalog'): Catalog {
  const parsed = CatalogFile.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new CatalogError(`${source} is invalid:\n${lines.join('\n')}`);
  }
  const models: GenerationModelEntry[] = [];
  let faceSwap: FaceSwapEntry | undefined;
  let moderation: ModerationEntry | undefined;
  const bySlug = new Map<string, GenerationModelEntry>();
  const slugs = new Set<string>();
  for (const m of parsed.data.models) {
    if (slugs.has(m.slug)) throw new CatalogError(`${source}: slug "${m.slug}" appears twice`);
    slugs.add(m.slug);
    if (m.type === 'face-swap') faceSwap = m;
    else if (m.type === 'moderation') moderation = m;
    else {
      for (const task of Object.keys(m.tasks)) {
        if (!isTaskName(task)) {
          throw new CatalogError(
            `${source}: model "${m.slug}" lists unknown task "${task}" (tasks: ${TASK_NAMES.join(', ')})`,
          );
        }
        if (!m.tasks[task]!.engine && !m.engine) {
          throw new CatalogError(`${source}: model "${m.slug}" task "${task}" names no engine`);
        }
      }
      models.push(m);
      bySlug.set(m.slug, m);
    }
  }
  if (!faceSwap) throw new CatalogError(`${source}: needs one entry of type "face-swap"`);
  if (!moderation) throw new CatalogError(`${source}: needs one entry of type "moderation"`);
  ModelType.parse(faceSwap.type);
  return { models, faceSwap, moderation, bySlug };
}

export function loadCatalog(path: string): Catalog {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CatalogError(`cannot read the catalog ${path}: ${(err as Error).message}`);
  }
  return parseCatalog(raw, path);
}

/** The engine id serving `task` of `model`. */
export function engineIdFor(model: GenerationModelEntry, task: TaskName): string {
  return model.tasks[task]?.engine ?? model.engine!;
}
