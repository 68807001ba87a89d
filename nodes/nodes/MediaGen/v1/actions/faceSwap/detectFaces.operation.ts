import {
  updateDisplayOptions,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
} from 'n8n-workflow';
import { textParameter } from '../../helpers/parameters';
import { getClient } from '../../transport';

const properties: INodeProperties[] = [
  {
    displayName: 'Source Image URL',
    name: 'sourceImage',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'https://example.com/people.jpg',
    description: 'Public http(s) URL of an image with one or more faces',
  },
  {
    displayName: 'Output',
    name: 'facesOutput',
    type: 'options',
    default: 'split',
    options: [
      {
        name: 'One Item per Face',
        value: 'split',
        description: 'Each face URL in its own item (feed them straight into Swap Face)',
      },
      {
        name: 'One Item with the List',
        value: 'list',
        description: 'A single item with all face URLs in "faces"',
      },
    ],
    description: 'How to return the detected faces',
  },
];

export const description = updateDisplayOptions(
  { show: { resource: ['faceSwap'], operation: ['detectFaces'] } },
  properties,
);

/** POST /face-swap/detect (free): URLs of the cropped faces. With no face, one item with an empty list and a message. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
  const sourceImage = textParameter.call(this, 'sourceImage', 'Source Image URL', i).trim();
  const mode = this.getNodeParameter('facesOutput', i, 'split') as 'split' | 'list';
  const client = await getClient(this);
  const signal = this.getExecutionCancelSignal();
  const detected = await client.detectFaces(sourceImage, signal ? { signal } : {});
  if (mode === 'list' || detected.faces.length === 0) {
    return [
      {
        json: { ...detected, count: detected.faces.length, source_image: sourceImage } as IDataObject,
        pairedItem: { item: i },
      },
    ];
  }
  return detected.faces.map((face, index) => ({
    json: { face_url: face, index, count: detected.faces.length, source_image: sourceImage },
    pairedItem: { item: i },
  }));
}
