/**
 * Prints the OpenAPI document: `node dist/openapi-cli.js [--server-url URL] [--out FILE]`.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from './openapi.js';

const { values } = parseArgs({
  options: { 'server-url': { type: 'string' }, out: { type: 'string' } },
});
const serverUrl = values['server-url'];
const text = `${JSON.stringify(buildOpenApiDocument(serverUrl ? { serverUrl } : {}), null, 2)}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
