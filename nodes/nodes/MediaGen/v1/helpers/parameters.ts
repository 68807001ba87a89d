import { NodeOperationError, type IExecuteFunctions, type IGetNodeParameterOptions } from 'n8n-workflow';

/**
 * A text field's value for item `i`. An expression may resolve to anything: numbers and booleans become
 * text, null is empty, but an object or a list is refused with an error naming the field. Turning it into
 * "[object Object]" instead would send that to the API: a moderation check would pass unchecked content.
 */
export function textParameter(
  this: IExecuteFunctions,
  name: string,
  displayName: string,
  i: number,
  options?: IGetNodeParameterOptions,
): string {
  const value = this.getNodeParameter(name, i, '', options) as unknown;
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new NodeOperationError(
    this.getNode(),
    `${displayName} must be text, but its value is ${Array.isArray(value) ? 'a list' : 'an object'}`,
    {
      itemIndex: i,
      description: `Set ${displayName} to a text field of the item (for example {{ $json.text }}), or turn the value into text in the expression with JSON.stringify(...).`,
    },
  );
}
