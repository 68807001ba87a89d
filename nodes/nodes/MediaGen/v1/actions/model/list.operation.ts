import { ModelType } from '@mediagen/core';
import {
  updateDisplayOptions,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { getClient } from '../../transport';

const properties: INodeProperties[] = [
  {
    displayName: 'Type',
    name: 'modelType',
    type: 'options',
    default: 'all',
    options: [{ name: 'All', value: 'all' }, ...ModelType.options.map((value) => ({ name: value, value }))],
    description: 'Return only catalog entries of this type',
  },
];

export const description = updateDisplayOptions(
  { show: { resource: ['model'], operation: ['list'] } },
  properties,
);

/** GET /models: one item per catalog entry (slug, name, type, tasks, price_from_usd). */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const type = this.getNodeParameter('modelType', i, 'all') as string;
  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const models = await client.listModels(signal ? { signal } : {});
  return models
    .filter((m) => type === 'all' || m.type === type)
    .map((m) => ({ json: { ...m } as IDataObject, pairedItem: { item: i } }));
}
