/** The resource/operation pairs of the node, as the router dispatches them. */
export type MediaGenType =
  | { resource: 'model'; operation: 'list' }
  | { resource: 'generation'; operation: 'generate' | 'get' }
  | { resource: 'faceSwap'; operation: 'detectFaces' | 'swapFace' }
  | { resource: 'moderation'; operation: 'moderateImage' | 'moderateVideo' | 'moderateText' };
