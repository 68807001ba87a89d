import { isTaskName, outputTypeForTask } from '@mediagen/core';
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { getClient } from '../transport';

/**
 * Tasks of the chosen model (from GET /models), limited to those whose output type matches the chosen
 * Output Type and that this node has fields for.
 */
export async function getTasks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const slug = String(this.getCurrentNodeParameter('model', { extractValue: true }) ?? '').trim();
  const outputType = String(this.getCurrentNodeParameter('outputType') ?? '');
  if (slug === '') return [];
  const client = await getClient(this);
  const models = await client.listModels();
  const model = models.find((m) => m.slug === slug);
  if (!model) return [];
  return model.tasks
    .filter((task) => isTaskName(task) && (outputType === '' || outputTypeForTask(task) === outputType))
    .map((task) => ({ name: task, value: task, description: `${task} with ${model.name}` }));
}
