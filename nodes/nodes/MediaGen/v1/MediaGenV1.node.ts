import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeTypeBaseDescription,
  INodeTypeDescription,
} from 'n8n-workflow';
import { router } from './actions/router';
import { versionDescription } from './actions/versionDescription';
import { listSearch, loadOptions } from './methods';

/**
 * Version 1 of the MediaGen node. Registered by MediaGen.node.ts (a VersionedNodeType), which type-checks
 * it as an INodeType; the base description (name, icon, group) comes from there.
 */
export class MediaGenV1 {
  description: INodeTypeDescription;

  methods = { listSearch, loadOptions };

  constructor(baseDescription: INodeTypeBaseDescription) {
    this.description = { ...baseDescription, ...versionDescription } as INodeTypeDescription;
  }

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await router.call(this);
  }
}
