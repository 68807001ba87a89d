import {
  NodeOperationError,
  updateDisplayOptions,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { generationItem, outputOptions } from '../../helpers/output';
import { textParameter } from '../../helpers/parameters';
import { getClient } from '../../transport';

const properties: INodeProperties[] = [
  {
    displayName: 'Generation ID',
    name: 'generationId',
    type: 'string',
    default: '',
    required: true,
    description: 'The ID returned by Generate or Swap Face',
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: outputOptions,
  },
];

export const description = updateDisplayOptions(
  { show: { resource: ['generation'], operation: ['get'] } },
  properties,
);

/** GET /status/{id}: the generation now; its file when completed (per the Output option). */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const id = textParameter.call(this, 'generationId', 'Generation ID', i).trim();
  if (id === '') throw new NodeOperationError(this.getNode(), 'Generation ID is required', { itemIndex: i });
  const options = this.getNodeParameter('options', i, {}) as IDataObject;
  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const generation = await client.getGeneration(id, signal ? { signal } : {});
  return [await generationItem.call(this, client, generation, options, i)];
}
