import { MODERATION_LIMITS, MODERATION_POLICIES, type ModerationRequest } from '@mediagen/core';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { getClient } from '../transport';

const L = MODERATION_LIMITS;

const POLICY_DESCRIPTIONS: Record<string, string> = {
  nsfw: 'Nudity, sexual activity, sexually explicit material',
  violence: 'Content promoting or describing physical violence against people',
  hate: 'Hate speech or dehumanizing language targeting a protected group',
};

/** Policy and threshold (all media), max frames (video only): values and limits from core (spec 4.6). */
export function moderationOptions(video: boolean): INodeProperties {
  return {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      {
        displayName: 'Policy',
        name: 'policy',
        type: 'options',
        // Literal defaults (n8n's lint wants literals); test/description.test.ts checks them against core.
        default: 'nsfw',
        options: MODERATION_POLICIES.map((value) => ({
          name: value,
          value,
          description: POLICY_DESCRIPTIONS[value] ?? value,
        })),
        description: 'The policy to check against; one call checks one policy',
      },
      {
        displayName: 'Threshold',
        name: 'threshold',
        type: 'number',
        typeOptions: { minValue: L.thresholdMin, maxValue: L.thresholdMax, numberPrecision: 2 },
        default: 0.5,
        description: `Score at or above which the content is flagged (${L.thresholdMin} to ${L.thresholdMax})`,
      },
      ...(video
        ? [
            {
              displayName: 'Max Frames',
              name: 'maxFrames',
              type: 'number' as const,
              typeOptions: { minValue: L.maxFramesMin, maxValue: L.maxFramesMax, numberPrecision: 0 },
              default: 8,
              description: `Number of evenly spaced frames to check (${L.maxFramesMin} to ${L.maxFramesMax}); checking stops at the first flagged frame`,
            },
          ]
        : []),
    ],
  };
}

/** POST /moderation for one item; the verdict is in `nsfw` (whatever the policy), plus `flagged` for clarity. */
export async function moderate(
  this: IExecuteFunctions,
  i: number,
  content: Pick<ModerationRequest, 'image_url' | 'video_url' | 'text'>,
): Promise<INodeExecutionData[]> {
  const options = this.getNodeParameter('options', i, {}) as IDataObject;
  const request: ModerationRequest = {
    ...content,
    ...(options.policy !== undefined ? { policy: options.policy as ModerationRequest['policy'] } : {}),
    ...(options.threshold !== undefined ? { threshold: Number(options.threshold) } : {}),
    ...(content.video_url !== undefined && options.maxFrames !== undefined
      ? { max_frames: Number(options.maxFrames) }
      : {}),
  };
  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const result = await client.moderate(request, signal ? { signal } : {});
  return [{ json: { ...result, flagged: result.nsfw } as IDataObject, pairedItem: { item: i } }];
}
