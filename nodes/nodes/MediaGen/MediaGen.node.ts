import { VersionedNodeType, type INodeTypeBaseDescription, type IVersionedNodeType } from 'n8n-workflow';
import { MediaGenV1 } from './v1/MediaGenV1.node';

export class MediaGen extends VersionedNodeType {
  constructor() {
    const baseDescription: INodeTypeBaseDescription = {
      displayName: 'MediaGen',
      name: 'mediaGen',
      icon: { light: 'file:mediagen.svg', dark: 'file:mediagen.dark.svg' },
      group: ['transform'],
      defaultVersion: 1,
      description: 'Generate images, video and audio, swap faces and moderate content with the MediaGen API',
    };
    const nodeVersions: IVersionedNodeType['nodeVersions'] = {
      1: new MediaGenV1(baseDescription),
    };
    super(nodeVersions, baseDescription);
  }
}
