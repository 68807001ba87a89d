import type { INodeProperties } from 'n8n-workflow';
import * as detectFaces from './detectFaces.operation';
import * as swapFace from './swapFace.operation';

export { detectFaces, swapFace };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['faceSwap'] } },
    options: [
      {
        name: 'Detect Faces',
        value: 'detectFaces',
        action: 'Detect faces in an image',
        description: 'Find the faces in an image and return URLs of the cropped faces (free)',
      },
      {
        name: 'Swap Face',
        value: 'swapFace',
        action: 'Swap a face into an image or video',
        description:
          'Put a detected face into a target image, video or GIF (charged); waits for the result by default',
      },
    ],
    default: 'detectFaces',
  },
  ...detectFaces.description,
  ...swapFace.description,
];
