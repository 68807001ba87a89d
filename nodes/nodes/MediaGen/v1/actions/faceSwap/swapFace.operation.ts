import {
  NodeOperationError,
  updateDisplayOptions,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { generationItem, outputField, outputOptions } from '../../helpers/output';
import { textParameter } from '../../helpers/parameters';
import { pollUntilDone, waitOptions, waitSettings } from '../../helpers/polling';
import { getClient } from '../../transport';

const properties: INodeProperties[] = [
  {
    displayName: 'Source Face',
    name: 'sourceFace',
    type: 'options',
    default: 'faceUrl',
    options: [
      {
        name: 'Face URL',
        value: 'faceUrl',
        description: 'A face URL returned by Detect Faces',
      },
      {
        name: 'First Face of Source Image',
        value: 'firstFace',
        description: 'Detect faces in an image and use the first one (detection is free)',
      },
    ],
    description: 'Where the face to put into the target comes from',
  },
  {
    displayName: 'Source Face URL',
    name: 'sourceFaceUrl',
    type: 'string',
    default: '',
    required: true,
    displayOptions: { show: { sourceFace: ['faceUrl'] } },
    placeholder: '={{ $json.face_url }}',
    description: 'URL of a cropped face, as returned by Detect Faces',
  },
  {
    displayName: 'Source Image URL',
    name: 'sourceImage',
    type: 'string',
    default: '',
    required: true,
    displayOptions: { show: { sourceFace: ['firstFace'] } },
    placeholder: 'https://example.com/portrait.jpg',
    description: 'Public http(s) URL of an image with a face; its first detected face is used',
  },
  {
    displayName: 'Target Media URL',
    name: 'targetMedia',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'https://example.com/target.jpg',
    description: 'Public http(s) URL of the target image, video or GIF to put the face into',
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [...waitOptions, ...outputOptions],
  },
];

export const description = updateDisplayOptions(
  { show: { resource: ['faceSwap'], operation: ['swapFace'] } },
  properties,
);

/** POST /face-swap (charged), then (by default) wait for the result and download it. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const sourceFace = this.getNodeParameter('sourceFace', i, 'faceUrl') as 'faceUrl' | 'firstFace';
  const targetMedia = textParameter.call(this, 'targetMedia', 'Target Media URL', i).trim();
  const options = this.getNodeParameter('options', i, {}) as IDataObject;
  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const requestOptions = signal ? { signal } : {};

  let faceUrl: string;
  if (sourceFace === 'firstFace') {
    const sourceImage = textParameter.call(this, 'sourceImage', 'Source Image URL', i).trim();
    const detected = await client.detectFaces(sourceImage, requestOptions);
    const first = detected.faces[0];
    if (first === undefined) {
      throw new NodeOperationError(
        this.getNode(),
        `No face found in the source image ${sourceImage}${detected.message ? `: ${detected.message}` : ''}`,
        { itemIndex: i },
      );
    }
    faceUrl = first;
  } else {
    faceUrl = textParameter.call(this, 'sourceFaceUrl', 'Source Face URL', i).trim();
  }

  const { wait, maxWaitMs } = waitSettings(options);
  outputField(options); // refused before the charged submit, not after
  let generation = await client.faceSwap(faceUrl, targetMedia, requestOptions);
  if (wait) generation = await pollUntilDone.call(this, client, generation, maxWaitMs);
  const item = await generationItem.call(this, client, generation, options, i);
  item.json.source_face_url = faceUrl;
  return [item];
}
