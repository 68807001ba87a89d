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
    displayName: 'Image URL',
    name: 'imageUrl',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'https://example.com/image.jpg',
    description: 'Public http(s) URL of the image to check',
  },
  moderationOptions(false),
];

export const description = updateDisplayOptions(
  { show: { resource: ['moderation'], operation: ['moderateImage'] } },
  properties,
);

/** POST /moderation with `image_url`: a synchronous verdict (nsfw/flagged, score, threshold, policy). */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const value = textParameter.call(this, 'imageUrl', 'Image URL', i).trim();
  return moderate.call(this, i, { image_url: value });
}
