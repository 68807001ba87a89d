/**
 * The node's fields are DERIVED from @mediagen/core: every task parameter of every task appears with the
 * spec's allowed values, defaults and required flags, and the moderation defaults equal core's. A field
 * retyped by hand that drifts from core fails here.
 */
import {
  MEDIA_URL_FIELDS,
  MODERATION_LIMITS,
  ModerationRequest,
  TASK_NAMES,
  TASK_PARAMS,
} from '@mediagen/core';
import type * as W from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { loadBuilt, workflowLib } from './harness';

const { nodeType, credentialType } = loadBuilt();
const v1 = workflowLib.NodeHelpers.getVersionedNodeType(nodeType, 1) as W.INodeType;
const properties = v1.description.properties;

/** The properties n8n shows for Generation > Generate with this task. */
function shownFor(task: string): W.INodeProperties[] {
  return properties.filter((p) => {
    const show = p.displayOptions?.show;
    return show?.operation?.includes('generate') && show?.task?.includes(task);
  });
}

describe('Generate fields derived from core TASK_PARAMS', () => {
  it.each(TASK_NAMES)(
    '%s: every schema parameter is a field with its enum, default and required flag',
    (task) => {
      const schema = TASK_PARAMS[task].toJSONSchema({ io: 'input', unrepresentable: 'any' }) as {
        properties: Record<string, { enum?: string[]; default?: unknown }>;
        required?: string[];
      };
      const shown = shownFor(task);
      const collection = shown.find((p) => p.name === 'taskParameters');
      const fields = new Map<string, W.INodeProperties>();
      for (const p of shown) if (p.name !== 'taskParameters') fields.set(p.name, p);
      for (const p of (collection?.options ?? []) as W.INodeProperties[]) fields.set(p.name, p);

      expect([...fields.keys()].sort()).toEqual(Object.keys(schema.properties).sort());
      for (const [name, p] of Object.entries(schema.properties)) {
        const field = fields.get(name)!;
        const required = (schema.required ?? []).includes(name);
        expect(Boolean(field.required), `${task}.${name} required`).toBe(required);
        // Required fields and media URLs are top-level fields, never hidden in the collection.
        if (required || MEDIA_URL_FIELDS[task].includes(name)) {
          expect(shown.some((s) => s.name === name)).toBe(true);
        }
        if (p.enum) {
          expect(field.type).toBe('options');
          expect((field.options as W.INodePropertyOptions[]).map((o) => o.value)).toEqual(p.enum);
        }
        if (p.default !== undefined) expect(field.default).toEqual(p.default);
      }
    },
  );

  it('offers the tasks core knows in its description, and nothing for unknown tasks', () => {
    const task = properties.find((p) => p.name === 'task')!;
    for (const name of TASK_NAMES) expect(task.description).toContain(name);
    expect(shownFor('image-to-music')).toHaveLength(0);
  });
});

describe('moderation fields', () => {
  it("default to core's policy, threshold and max frames", () => {
    const defaults = ModerationRequest.parse({ text: 'x' });
    const videoOptions = properties.find(
      (p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('moderateVideo'),
    )!.options as W.INodeProperties[];
    const byName = Object.fromEntries(videoOptions.map((o) => [o.name, o]));
    expect(byName.policy!.default).toBe(defaults.policy);
    expect(byName.threshold!.default).toBe(defaults.threshold);
    expect(byName.maxFrames!.default).toBe(defaults.max_frames);
    expect(byName.maxFrames!.typeOptions).toMatchObject({
      minValue: MODERATION_LIMITS.maxFramesMin,
      maxValue: MODERATION_LIMITS.maxFramesMax,
    });
  });

  it('has two outputs, Passed and Flagged, only with Route by Verdict', () => {
    const outputs = String(v1.description.outputs);
    expect(outputs).toMatch(/^=\{\{/);
    expect(outputs).toContain('"Passed"');
    expect(outputs).toContain('"Flagged"');
    expect(outputs).toContain('$parameter.routeByVerdict === true');
  });
});

describe('package conventions', () => {
  it('is usable as an AI Agent tool and has light and dark icons', () => {
    expect(v1.description.usableAsTool).toBe(true);
    expect(v1.description.icon).toEqual({ light: 'file:mediagen.svg', dark: 'file:mediagen.dark.svg' });
  });

  it('authenticates with a Bearer header and tests the credential with GET /models', () => {
    const auth = credentialType.authenticate as W.IAuthenticateGeneric;
    expect(auth.properties.headers).toEqual({ Authorization: '=Bearer {{$credentials.apiKey}}' });
    expect(credentialType.test?.request).toMatchObject({ url: '/models', method: 'GET' });
    const apiKey = credentialType.properties.find((p) => p.name === 'apiKey')!;
    expect(apiKey.typeOptions?.password).toBe(true);
  });
});
