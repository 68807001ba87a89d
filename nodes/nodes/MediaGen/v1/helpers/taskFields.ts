import {
  formatValidationError,
  MEDIA_URL_FIELDS,
  TASK_NAMES,
  TASK_PARAMS,
  type TaskName,
} from '@mediagen/core';
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The Generate operation's task fields, DERIVED from @mediagen/core's TASK_PARAMS zod schemas (the spec's
 * single source of truth) through their JSON Schema: names, types, allowed values, defaults, limits,
 * required flags and descriptions all come from core. Nothing here retypes the spec.
 *
 * Layout per task:
 * - top-level fields: the prompt, every required field and every media URL field (spec 4.2: "required
 *   media URLs as fields");
 * - everything else in a "Task Parameters" collection named `taskParameters`.
 */

interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: JsonSchemaProperty;
}

interface TaskJsonSchema {
  properties: Record<string, JsonSchemaProperty>;
  required?: string[];
}

export interface TaskField {
  name: string;
  required: boolean;
  topLevel: boolean;
  isList: boolean;
  property: INodeProperties;
}

const schemaCache = new Map<TaskName, TaskJsonSchema>();

export function taskJsonSchema(task: TaskName): TaskJsonSchema {
  let schema = schemaCache.get(task);
  if (!schema) {
    schema = TASK_PARAMS[task].toJSONSchema({ io: 'input', unrepresentable: 'any' }) as TaskJsonSchema;
    schemaCache.set(task, schema);
  }
  return schema;
}

/** `aspect_ratio` -> `Aspect Ratio`. */
function titleCase(name: string): string {
  return name
    .split('_')
    .map((w) => (w.length > 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

function sentence(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function displayNameOf(name: string, isMedia: boolean, isList: boolean): string {
  const base = titleCase(name);
  if (!isMedia) return base;
  // `reference_images` -> `Reference Image URLs`; `image` -> `Image URL`.
  if (isList) return `${base.replace(/s$/, '')} URLs`;
  return `${base} URL`;
}

function limitsText(p: JsonSchemaProperty): string {
  const parts: string[] = [];
  if (p.minimum !== undefined && p.maximum !== undefined) parts.push(`${p.minimum} to ${p.maximum}`);
  if (p.maxItems !== undefined) parts.push(`at most ${p.maxItems}, comma- or newline-separated`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

function fieldFor(task: TaskName, name: string, p: JsonSchemaProperty, required: boolean): TaskField {
  const isMedia = MEDIA_URL_FIELDS[task].includes(name);
  const isList = p.type === 'array';
  const topLevel = required || isMedia || name === 'prompt';
  const description = sentence(`${p.description ?? titleCase(name)}${limitsText(p)}`);
  const base = {
    displayName: displayNameOf(name, isMedia, isList),
    name,
    ...(description ? { description } : {}),
    ...(required ? { required: true } : {}),
  };
  let property: INodeProperties;
  if (Array.isArray(p.enum) && p.enum.length > 0) {
    const options: INodePropertyOptions[] = p.enum.map((v) => ({ name: String(v), value: String(v) }));
    property = {
      ...base,
      type: 'options',
      options,
      default: p.default !== undefined ? String(p.default) : String(p.enum[0]),
    };
  } else if (p.type === 'integer' || p.type === 'number') {
    property = {
      ...base,
      type: 'number',
      typeOptions: {
        ...(p.minimum !== undefined ? { minValue: p.minimum } : {}),
        ...(p.maximum !== undefined ? { maxValue: p.maximum } : {}),
        ...(p.type === 'integer' ? { numberPrecision: 0 } : {}),
      },
      default: typeof p.default === 'number' ? p.default : (p.minimum ?? 0),
    };
  } else {
    property = {
      ...base,
      type: 'string',
      default: typeof p.default === 'string' ? p.default : '',
      ...(name === 'prompt' ? { typeOptions: { rows: 4 } } : {}),
      ...(isMedia && !isList ? { placeholder: 'https://example.com/input' } : {}),
      ...(isList ? { placeholder: 'https://example.com/a.png, https://example.com/b.png' } : {}),
    };
  }
  return { name, required, topLevel, isList, property };
}

export function taskFields(task: TaskName): TaskField[] {
  const schema = taskJsonSchema(task);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, p]) => fieldFor(task, name, p, required.has(name)));
}

/** n8n properties for every task, shown only when that task is picked in Generation > Generate. */
export function taskProperties(show: IDataObject): INodeProperties[] {
  const properties: INodeProperties[] = [];
  for (const task of TASK_NAMES) {
    const displayOptions = { show: { ...show, task: [task] } };
    const fields = taskFields(task);
    for (const field of fields.filter((f) => f.topLevel)) {
      properties.push({ ...field.property, displayOptions });
    }
    const optional = fields.filter((f) => !f.topLevel);
    if (optional.length > 0) {
      properties.push({
        displayName: 'Task Parameters',
        name: 'taskParameters',
        type: 'collection',
        placeholder: 'Add Parameter',
        default: {},
        description: `Optional parameters of ${task}`,
        displayOptions,
        options: optional.map((f) => f.property),
      });
    }
  }
  return properties;
}

function splitList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter((v) => v !== '');
  return String(value ?? '')
    .split(/[\n,]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * The request body for a task from the node's parameter values: empty optional values are left out (so
 * the server's defaults apply), lists are split, and the result is checked against core's schema so a
 * mistake is reported before anything is charged.
 */
export function buildTaskParams(
  task: TaskName,
  getValue: (name: string) => unknown,
  taskParameters: IDataObject,
): { params: Record<string, unknown> } | { error: string } {
  const params: Record<string, unknown> = {};
  for (const field of taskFields(task)) {
    const raw = field.topLevel ? getValue(field.name) : taskParameters[field.name];
    if (raw === undefined || raw === null) continue;
    if (field.isList) {
      const list = splitList(raw);
      if (list.length > 0) params[field.name] = list;
      continue;
    }
    if (typeof raw === 'string' && raw.trim() === '' && !field.required) continue;
    params[field.name] = typeof raw === 'string' ? raw.trim() : raw;
  }
  const parsed = TASK_PARAMS[task].safeParse(params);
  if (!parsed.success) return { error: formatValidationError(parsed.error) };
  return { params };
}
