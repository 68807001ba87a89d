import { isTaskName, OutputType, TASK_NAMES } from '@mediagen/core';
import {
  NodeOperationError,
  updateDisplayOptions,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { generationItem, outputField, outputOptions } from '../../helpers/output';
import { pollUntilDone, waitOptions, waitSettings } from '../../helpers/polling';
import { textParameter } from '../../helpers/parameters';
import { buildTaskParams, taskProperties } from '../../helpers/taskFields';
import { getClient } from '../../transport';

const show = { resource: ['generation'], operation: ['generate'] };

const properties: INodeProperties[] = [
  {
    displayName: 'Output Type',
    name: 'outputType',
    type: 'options',
    default: 'image',
    options: OutputType.options.map((value) => ({ name: value[0]!.toUpperCase() + value.slice(1), value })),
    description: 'The kind of media to generate; the model list shows only models of this type',
  },
  {
    displayName: 'Model',
    name: 'model',
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required: true,
    description: 'The model to generate with (its slug)',
    modes: [
      {
        displayName: 'From List',
        name: 'list',
        type: 'list',
        typeOptions: { searchListMethod: 'searchModels', searchable: true },
      },
      {
        displayName: 'Slug',
        name: 'id',
        type: 'string',
        placeholder: 'e.g. flux-schnell',
      },
    ],
  },
  {
    displayName: 'Task Name or ID',
    name: 'task',
    type: 'options',
    default: '',
    required: true,
    typeOptions: { loadOptionsMethod: 'getTasks', loadOptionsDependsOn: ['model.value', 'outputType'] },
    description: `What the model should do (one of: ${TASK_NAMES.join(', ')}). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
  },
  ...taskProperties(show),
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [...waitOptions, ...outputOptions],
  },
];

export const description = updateDisplayOptions({ show }, properties);

/**
 * POST /{model}/{task}, then (by default) wait for the output and download it.
 * "Wait for Completion: off" returns the queued generation at once.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const model = textParameter.call(this, 'model', 'Model', i, { extractValue: true }).trim();
  const task = textParameter.call(this, 'task', 'Task', i).trim();
  const options = this.getNodeParameter('options', i, {}) as IDataObject;
  if (model === '') throw new NodeOperationError(this.getNode(), 'Model is required', { itemIndex: i });
  if (!isTaskName(task)) {
    throw new NodeOperationError(
      this.getNode(),
      `Task "${task}" is not one this node knows; pick one of ${TASK_NAMES.join(', ')}`,
      { itemIndex: i },
    );
  }
  const taskParameters = this.getNodeParameter('taskParameters', i, {}) as IDataObject;
  const built = buildTaskParams(task, (name) => this.getNodeParameter(name, i, undefined), taskParameters);
  if ('error' in built) {
    throw new NodeOperationError(this.getNode(), `Invalid ${task} parameters: ${built.error}`, {
      itemIndex: i,
    });
  }

  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const { wait, maxWaitMs } = waitSettings(options);
  outputField(options); // refused before the charged submit, not after
  let generation = await client.submit(model, task, built.params, signal ? { signal } : {});
  if (wait) generation = await pollUntilDone.call(this, client, generation, maxWaitMs);
  return [await generationItem.call(this, client, generation, options, i)];
}
