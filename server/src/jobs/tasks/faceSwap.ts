/** Job `face_swap`: downloads the chosen face and the target, then runs the face swap engine. */
import { join } from 'node:path';
import type { Task } from 'graphile-worker';
import type { AppContext } from '../../context.js';
import { faceEngines } from '../../engines/registry.js';
import { runGenerationJob } from '../runGeneration.js';

export function faceSwapTask(ctx: AppContext): Task {
  return (payload, helpers) =>
    runGenerationJob(ctx, payload, helpers, async (row, workDir, signal) => {
      const p = row.params as { source_face_url: string; target_media: string };
      const source = await ctx.fetcher.fetch(
        p.source_face_url,
        join(workDir, 'source-face'),
        'source_face_url',
        ['image'],
        signal,
      );
      const target = await ctx.fetcher.fetch(
        p.target_media,
        join(workDir, 'target'),
        'target_media',
        row.type === 'video' ? ['video'] : ['image'],
        signal,
      );
      const { faceSwapEngine } = await faceEngines();
      return faceSwapEngine.run({
        sourcePath: source.path,
        targetPath: target.path,
        targetMime: target.mime,
        workDir,
        signal,
      });
    });
}
