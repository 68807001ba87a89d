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

/** Version 1's part of the description; name, display name, icon and group come from MediaGen.node.ts. */
export const versionDescription: Omit<
  INodeTypeDescription,
  'displayName' | 'name' | 'group' | 'description'
> = {
  version: 1,
  subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
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
