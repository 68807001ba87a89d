import type { INodeProperties } from 'n8n-workflow';
import * as generate from './generate.operation';
import * as get from './get.operation';

export { generate, get };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['generation'] } },
    options: [
      {
        name: 'Generate',
        value: 'generate',
        action: 'Generate media',
        description:
          'Generate media from a prompt or input media with a model and task; waits for the result and downloads it by default',
      },
      {
        name: 'Get',
        value: 'get',
        action: 'Get a generation',
        description: 'Get the status and output of a generation by its ID',
      },
    ],
    default: 'generate',
  },
  ...generate.description,
  ...get.description,
];
