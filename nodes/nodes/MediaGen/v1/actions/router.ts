import {
  NodeOperationError,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
} from 'n8n-workflow';
import { toNodeError } from '../helpers/errors';
import * as faceSwap from './faceSwap';
import * as generation from './generation';
import * as model from './model';
import * as moderation from './moderation';
import type { MediaGenType } from './node.type';

type Execute = (this: IExecuteFunctions, i: number) => Promise<INodeExecutionData[]>;

/**
 * Runs the chosen operation once per input item. Every output item is paired with its input item.
 * With Continue On Fail an item's error becomes an `{error}` item (paired), otherwise API errors are
 * thrown as NodeApiError (HTTP status + the API's message) and everything else as NodeOperationError.
 * A cancelled execution stops at once, whatever Continue On Fail says.
 * Moderation with "Route by Verdict" returns two outputs: Passed and Flagged.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const resource = this.getNodeParameter('resource', 0) as MediaGenType['resource'];
  const operation = this.getNodeParameter('operation', 0) as string;

  let execute: Execute | undefined;
  switch (resource) {
    case 'model':
      execute = model[operation as 'list']?.execute;
      break;
    case 'generation':
      execute = generation[operation as 'generate' | 'get']?.execute;
      break;
    case 'faceSwap':
      execute = faceSwap[operation as 'detectFaces' | 'swapFace']?.execute;
      break;
    case 'moderation':
      execute = moderation[operation as 'moderateImage' | 'moderateVideo' | 'moderateText']?.execute;
      break;
  }
  if (!execute) {
    throw new NodeOperationError(
      this.getNode(),
      `The operation "${operation}" of "${resource}" is not supported`,
    );
  }

  const routeByVerdict =
    resource === 'moderation' && (this.getNodeParameter('routeByVerdict', 0, false) as boolean);
  const passed: INodeExecutionData[] = [];
  const flagged: INodeExecutionData[] = [];
  const cancel = this.getExecutionCancelSignal();

  for (let i = 0; i < items.length; i++) {
    try {
      const results = await execute.call(this, i);
      for (const result of results) {
        if (routeByVerdict && result.json.nsfw === true) flagged.push(result);
        else passed.push(result);
      }
    } catch (error) {
      // A cancelled execution stops at once, whatever Continue On Fail says.
      if (cancel?.aborted) throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
      const nodeError = toNodeError(this.getNode(), error, i);
      if (this.continueOnFail()) {
        const details = {
          ...(nodeError.description ? { description: nodeError.description } : {}),
          ...('httpCode' in nodeError && nodeError.httpCode ? { httpCode: nodeError.httpCode } : {}),
        };
        // "Continue (using error output)": n8n moves an item to the Error output only when its json has
        // no keys but error/message/details, so there the details are nested; otherwise they would send
        // the failed item down the Success output as if it had worked.
        const json: IDataObject =
          this.getNode().onError === 'continueErrorOutput'
            ? { error: nodeError.message, ...(Object.keys(details).length > 0 ? { details } : {}) }
            : { error: nodeError.message, ...details };
        const errorItem: INodeExecutionData = { json, pairedItem: { item: i } };
        (routeByVerdict ? flagged : passed).push(errorItem);
        continue;
      }
      throw nodeError;
    }
  }
  return routeByVerdict ? [passed, flagged] : [passed];
}
