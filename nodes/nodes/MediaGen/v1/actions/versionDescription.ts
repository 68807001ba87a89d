import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';
import * as faceSwap from './faceSwap';
import * as generation from './generation';
import * as model from './model';
import * as moderation from './moderation';

/**
 * Outputs: one ("main"), or two (Passed, Flagged) for Moderation with Route by Verdict.
 * n8n evaluates this expression in the editor and at run time.
 */
const outputsExpression: `={{${string}}}` = `={{ $parameter.resource === "moderation" && $parameter.routeByVerdict === true ? [{ type: "${NodeConnectionTypes.Main}", displayName: "Passed" }, { type: "${NodeConnectionTypes.Main}", displayName: "Flagged" }] : ["${NodeConnectionTypes.Main}"] }}`;

export const versionDescription: INodeTypeDescription = {
  displayName: 'MediaGen',
  name: 'mediaGen',
  icon: { light: 'file:mediagen.svg', dark: 'file:mediagen.dark.svg' },
  group: ['transform'],
  version: 1,
  subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
  description: 'Generate images, video and audio, swap faces and moderate content with the MediaGen API',
  defaults: { name: 'MediaGen' },
  usableAsTool: true,
  inputs: [NodeConnectionTypes.Main],
  outputs: outputsExpression,
  credentials: [{ name: 'mediaGenApi', required: true }],
  properties: [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: [
        {
          name: 'Face Swap',
          value: 'faceSwap',
          description: 'Detect faces, then swap one into an image or video',
        },
        {
          name: 'Generation',
          value: 'generation',
          description: 'Generate images, video and audio; get a generation',
        },
        { name: 'Model', value: 'model', description: 'The model catalog' },
        {
          name: 'Moderation',
          value: 'moderation',
          description: 'Check an image, video or text against a policy',
        },
      ],
      default: 'generation',
    },
    ...faceSwap.description,
    ...generation.description,
    ...model.description,
    ...moderation.description,
  ],
};
