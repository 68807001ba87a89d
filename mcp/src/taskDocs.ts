import { z } from 'zod';
import { TASK_NAMES, TASK_PARAMS, type Model, type TaskName } from '@mediagen/core';

interface JsonSchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: JsonSchemaProperty;
}

function describeProperty(name: string, p: JsonSchemaProperty, required: boolean): string {
  const facts: string[] = [];
  if (p.enum) facts.push(`one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  else if (p.type === 'array')
    facts.push(
      `array of ${p.items?.type ?? 'values'}${p.maxItems !== undefined ? `, at most ${p.maxItems}` : ''}`,
    );
  else if (p.type) facts.push(Array.isArray(p.type) ? p.type.join('|') : p.type);
  if (p.minimum !== undefined && p.maximum !== undefined) facts.push(`${p.minimum} to ${p.maximum}`);
  facts.push(required ? 'required' : 'optional');
  if (p.default !== undefined) facts.push(`default ${JSON.stringify(p.default)}`);
  return `${name} (${facts.join(', ')})${p.description ? `: ${p.description}` : ''}`;
}

/**
 * One line per field of a task, generated from the core's zod schema (the single source of truth), e.g.
 * `count (integer, 1 to 4, optional, default 1): Number of images, 1 to 4`.
 */
export function taskFieldLines(task: TaskName): string[] {
  const schema = z.toJSONSchema(TASK_PARAMS[task], { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchemaProperty>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, p]) =>
    describeProperty(name, p, required.has(name)),
  );
}

/** The `params` description of the generate tool: every task and its fields. */
export function taskParamsDescription(): string {
  const lines = [
    "The task's parameters as an object. Fields per task (generated from the API schema; the tool checks them before submitting and names any field that is wrong):",
  ];
  for (const task of TASK_NAMES) lines.push(`- ${task}: ${taskFieldLines(task).join('; ')}`);
  lines.push(
    'reference-to-video needs at least one of reference_images, reference_videos, reference_audios. Media fields take public http(s) URLs.',
  );
  return lines.join('\n');
}

function usd(value: number): string {
  return `$${value
    .toFixed(value < 0.01 ? 4 : 2)
    .replace(/0+$/, '')
    .replace(/\.$/, '')}`;
}

/** A cost note for a charged tool's description, with the catalog's prices when they are known. */
export function priceNote(catalog: Model[], types: Model['type'][], fallback: string): string {
  const priced = catalog.filter((m) => types.includes(m.type));
  if (priced.length === 0) return fallback;
  const parts = priced.map(
    (m) => `${m.slug} ${m.price_from_usd === null ? '(price not listed)' : `from ${usd(m.price_from_usd)}`}`,
  );
  return `${fallback} Catalog prices per generation: ${parts.join(', ')}.`;
}
