import { readFileSync } from 'node:fs';
import { ModelList, TASK_NAMES } from '@mediagen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { call, clientFor, expectError, startServer } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv?.stop());

describe('GET /models', () => {
  it('401 without a key and with a wrong key', async () => {
    expectError(await call(srv, 'GET', '/models'), 401, 'UNAUTHORIZED');
    expectError(await call(srv, 'GET', '/models', { key: 'mg_wrong' }), 401, 'UNAUTHORIZED');
  });

  it('lists the catalog with Cache-Control: public, max-age=3600, through the core client too', async () => {
    const res = await call(srv, 'GET', '/models', { key: srv.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const models = ModelList.parse(res.body.data);
    const viaClient = await clientFor(srv).listModels();
    expect(viaClient.map((m) => m.slug)).toEqual(models.map((m) => m.slug));
    for (const task of TASK_NAMES) {
      expect(
        models.some((m) => m.tasks.includes(task)),
        `a model for ${task}`,
      ).toBe(true);
    }
  });

  it('has the face-swap entry and the moderation entry (price 0, task named like its slug)', async () => {
    const models = ModelList.parse((await call(srv, 'GET', '/models', { key: srv.apiKey })).body.data);
    const faceSwap = models.find((m) => m.type === 'face-swap');
    expect(faceSwap).toBeDefined();
    expect(faceSwap!.price_from_usd).toBeGreaterThan(0);
    const moderation = models.filter((m) => m.type === 'moderation');
    expect(moderation).toHaveLength(1);
    expect(moderation[0]!.price_from_usd).toBe(0);
    expect(moderation[0]!.tasks).toEqual([moderation[0]!.slug]);
  });

  it('price_from_usd is the lowest catalog price; stand-ins say so', async () => {
    const catalog = JSON.parse(readFileSync(new URL('../../catalog.json', import.meta.url), 'utf8'));
    const models = ModelList.parse((await call(srv, 'GET', '/models', { key: srv.apiKey })).body.data);
    const painter = models.find((m) => m.slug === 'scene-painter')!;
    const entry = catalog.models.find((m: { slug: string }) => m.slug === 'scene-painter');
    const lowest = Math.min(
      ...Object.values(entry.tasks as Record<string, { pricing: { per_output_usd: number } }>).map(
        (t) => t.pricing.per_output_usd,
      ),
    );
    expect(painter.price_from_usd).toBe(lowest);
    const animator = models.find((m) => m.slug === 'scene-animator')!;
    // text-to-video 480p at 4 s (the shortest allowed) is $0.04
    expect(animator.price_from_usd).toBe(0.04);
    for (const m of models.filter((x) => ['image', 'video'].includes(x.type))) {
      expect(`${m.name} ${m.description}`).toMatch(/stand-in/i);
    }
  });
});
