import type { INodeProperties } from 'n8n-workflow';
import * as list from './list.operation';

export { list };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['model'] } },
    options: [
      {
        name: 'List',
        value: 'list',
        action: 'List models',
        description: 'List the models of the catalog with their tasks and lowest prices',
      },
    ],
    default: 'list',
  },
  ...list.description,
];
