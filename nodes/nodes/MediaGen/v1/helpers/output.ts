import type { Generation, MediaGenClient } from '@mediagen/core';
import type {
  IBinaryKeyData,
  IDataObject,
  IExecuteFunctions,
  INodeExecutionData,
  INodeProperties,
} from 'n8n-workflow';

export type OutputMode = 'file' | 'url' | 'both';

/** The options shared by Generate, Get and Swap Face that decide what a completed generation returns. */
export const outputOptions: INodeProperties[] = [
  {
    displayName: 'Output',
    name: 'output',
    type: 'options',
    default: 'file',
    options: [
      {
        name: 'Download File',
        value: 'file',
        description: 'Put the file in a binary field (mime type and file name from the server)',
      },
      {
        name: 'URL Only',
        value: 'url',
        description: 'Return the signed output URL (valid 7 days) without downloading',
      },
      {
        name: 'File and URL',
        value: 'both',
        description: 'Download the file and also return the signed URL',
      },
    ],
    description: 'What to return for a completed generation. When used as an AI Agent tool: always the URL.',
  },
  {
    displayName: 'Put Output File in Field',
    name: 'binaryPropertyName',
    type: 'string',
    default: 'data',
    description:
      'Name of the binary field for the file. Several outputs (count > 1) go to data, data_1, data_2 and so on.',
  },
];

/**
 * The binary field name from Options > Put Output File in Field (default `data`). Checked before the
 * charged submit too: an expression that gives an object or a list is refused, not turned into a field
 * named "[object Object]".
 */
export function outputField(options: IDataObject): string {
  const value = options.binaryPropertyName ?? 'data';
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(
      `Options > Put Output File in Field must be a field name such as "data", but its value is ${Array.isArray(value) ? 'a list' : 'an object'}`,
    );
  }
  return String(value).trim() || 'data';
}

function urlsOf(generation: Generation): string[] {
  if (Array.isArray(generation.output_urls) && generation.output_urls.length > 0)
    return generation.output_urls;
  return generation.output_url ? [generation.output_url] : [];
}

function isNodeStream(body: unknown): boolean {
  return typeof (body as { pipe?: unknown } | null)?.pipe === 'function';
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * One output item for a generation. A completed generation's file is streamed into n8n's binary data
 * (mime type and file name as the server sent them) unless URLs were asked for, or the node runs as an AI
 * Agent tool (binary would overflow the agent's context: the URL is returned instead).
 */
export async function generationItem(
  this: IExecuteFunctions,
  client: MediaGenClient,
  generation: Generation,
  options: IDataObject,
  itemIndex: number,
): Promise<INodeExecutionData> {
  let mode = (options.output as OutputMode | undefined) ?? 'file';
  if (this.isToolExecution()) mode = 'url';
  const urls = urlsOf(generation);
  if (generation.status !== 'completed' || urls.length === 0 || mode === 'url') {
    return { json: { ...generation } as IDataObject, pairedItem: { item: itemIndex } };
  }

  const field = outputField(options);
  const binary: IBinaryKeyData = {};
  const files: IDataObject[] = [];
  const signal = this.getExecutionCancelSignal();
  for (const [index, url] of urls.entries()) {
    const download = await client.download(url, signal ? { signal } : {});
    const mimeType = download.contentType.split(';')[0]!.trim() || 'application/octet-stream';
    const body = isNodeStream(download.body)
      ? (download.body as unknown as Parameters<typeof this.helpers.prepareBinaryData>[0])
      : await collect(download.body);
    const key = index === 0 ? field : `${field}_${index}`;
    binary[key] = await this.helpers.prepareBinaryData(body, download.fileName, mimeType);
    files.push({ field: key, fileName: download.fileName, mimeType });
  }

  const json: IDataObject = { ...generation, files };
  if (mode === 'file') {
    delete json.output_url;
    delete json.output_urls;
  }
  return { json, binary, pairedItem: { item: itemIndex } };
}
