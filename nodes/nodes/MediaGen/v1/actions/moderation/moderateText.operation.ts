import { MODERATION_LIMITS } from '@mediagen/core';
import {
  updateDisplayOptions,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { moderate, moderationOptions } from '../../helpers/moderation';
import { textParameter } from '../../helpers/parameters';

const properties: INodeProperties[] = [
  {
    displayName: 'Text',
    name: 'text',
    type: 'string',
    typeOptions: { rows: 4 },
    default: '',
    required: true,
    description: `Plain text to check, at most ${MODERATION_LIMITS.textMaxLength} characters (12 languages are read natively)`,
  },
  moderationOptions(false),
];

export const description = updateDisplayOptions(
  { show: { resource: ['moderation'], operation: ['moderateText'] } },
  properties,
);

/** POST /moderation with `text`: a synchronous verdict (nsfw/flagged, score, threshold, policy). */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const value = textParameter.call(this, 'text', 'Text', i);
  return moderate.call(this, i, { text: value });
}
