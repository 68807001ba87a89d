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
    displayName: 'Video URL',
    name: 'videoUrl',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'https://example.com/video.mp4',
    description: 'Public http(s) URL of the video to check',
  },
  moderationOptions(true),
];

export const description = updateDisplayOptions(
  { show: { resource: ['moderation'], operation: ['moderateVideo'] } },
  properties,
);

/** POST /moderation with `video_url`: a synchronous verdict (nsfw/flagged, score, threshold, policy). */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const value = textParameter.call(this, 'videoUrl', 'Video URL', i).trim();
  return moderate.call(this, i, { video_url: value });
}
