import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { getClient } from '../transport';

/** Generation models of the chosen Output Type (face swap and moderation entries are not generators). */
export async function searchModels(
  this: ILoadOptionsFunctions,
  filter?: string,
): Promise<INodeListSearchResult> {
  const outputType = String(this.getCurrentNodeParameter('outputType') ?? 'image');
  const client = await getClient(this);
  const models = await client.listModels();
  const needle = (filter ?? '').trim().toLowerCase();
  const results = models
    .filter((m) => m.type === outputType)
    .filter(
      (m) => needle === '' || m.slug.toLowerCase().includes(needle) || m.name.toLowerCase().includes(needle),
    )
    .map((m) => ({
      name: m.price_from_usd !== null ? `${m.name} (from $${m.price_from_usd})` : m.name,
      value: m.slug,
      description: m.description ?? m.tasks.join(', '),
    }));
  return { results };
}
