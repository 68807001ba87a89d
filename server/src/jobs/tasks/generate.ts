/**
 * Job `generate`: one generation. Downloads every input media URL of the task (spec 4.2 "Input media
 * rules", with the kind each field must hold), then runs the catalog's engine for the model and task.
 */
import { join } from 'node:path';
import { MEDIA_FIELD_KINDS, MEDIA_URL_FIELDS, type TaskName } from '@mediagen/core';
import type { Task } from 'graphile-worker';
import { engineIdFor } from '../../catalog/catalog.js';
import type { AppContext } from '../../context.js';
import { generationEngine } from '../../engines/registry.js';
import type { InputMedia } from '../../engines/types.js';
import { PermanentJobError, runGenerationJob, seedFor } from '../runGeneration.js';

export function generateTask(ctx: AppContext): Task {
  return (payload, helpers) =>
    runGenerationJob(ctx, payload, helpers, async (row, workDir, signal) => {
      const task = row.task as TaskName;
      const model = ctx.catalog.bySlug.get(row.model_slug);
      if (!model || !model.tasks[task]) {
        throw new PermanentJobError(`model "${row.model_slug}" no longer offers ${task} on this server`);
      }
      const engine = await generationEngine(engineIdFor(model, task), task);
      const media: InputMedia[] = [];
      for (const field of MEDIA_URL_FIELDS[task]) {
        const value = row.params[field];
        const urls = Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
        const kind = MEDIA_FIELD_KINDS[task][field] ?? 'image';
        for (const [index, url] of urls.entries()) {
          const name = Array.isArray(value) ? `${field}.${index}` : field;
          const got = await ctx.fetcher.fetch(
            url,
            join(workDir, `input-${field}-${index}`),
            name,
            [kind],
            signal,
          );
          media.push({ field, index, url, path: got.path, mime: got.mime, kind: got.kind });
        }
      }
      return engine.run({
        task,
        params: row.params,
        media,
        workDir,
        seed: seedFor(row),
        options: model.engine_options,
        signal,
      });
    });
}
