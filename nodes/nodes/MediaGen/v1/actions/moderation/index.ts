import type { INodeProperties } from 'n8n-workflow';
import * as moderateImage from './moderateImage.operation';
import * as moderateText from './moderateText.operation';
import * as moderateVideo from './moderateVideo.operation';

export { moderateImage, moderateText, moderateVideo };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['moderation'] } },
    options: [
      {
        name: 'Moderate Image',
        value: 'moderateImage',
        action: 'Moderate an image',
        description:
          'Check an image URL against a policy (nsfw, violence, hate) and get a verdict with a score',
      },
      {
        name: 'Moderate Text',
        value: 'moderateText',
        action: 'Moderate a text',
        description:
          'Check plain text against a policy (nsfw, violence, hate) and get a verdict with a score',
      },
      {
        name: 'Moderate Video',
        value: 'moderateVideo',
        action: 'Moderate a video',
        description:
          'Check sampled frames of a video URL against a policy and get a verdict with the highest frame score',
      },
    ],
    default: 'moderateText',
  },
  {
    displayName: 'Route by Verdict',
    name: 'routeByVerdict',
    type: 'boolean',
    noDataExpression: true,
    default: false,
    displayOptions: { show: { resource: ['moderation'] } },
    description:
      'Whether to send items to two outputs, Passed and Flagged, so the workflow can branch without an If node (items that fail with Continue On Fail go to Flagged)',
  },
  ...moderateImage.description,
  ...moderateText.description,
  ...moderateVideo.description,
];
