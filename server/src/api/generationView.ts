/** A generation row as the API shows it (spec 2.1 plus the documented extensions). */
import type { Generation } from '@mediagen/core';
import type { UrlSigner } from '../storage/signedUrl.js';

export interface StoredOutput {
  key: string;
  mime: string;
  ext: string;
}

export interface GenerationRow {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  model_name: string;
  type: 'image' | 'video' | 'audio';
  outputs: StoredOutput[] | null;
  error_message: string | null;
  created_at: Date;
  /** When jobs/tasks/purgeExpiredOutputs.ts deleted the files (absent from the submit batch's rows). */
  outputs_purged_at?: Date | null;
}

export const GENERATION_COLUMNS =
  'id, status, model_name, type, outputs, error_message, created_at, outputs_purged_at';

export function generationView(row: GenerationRow, signer: UrlSigner): Generation {
  const completed = row.status === 'completed' && row.outputs && row.outputs.length > 0;
  // Once the expired outputs were deleted there is no URL to give: output_url is null, and
  // expires_at (in the past) tells the client why.
  const purged = completed && Boolean(row.outputs_purged_at);
  const signed = completed ? row.outputs!.map((o) => signer.sign(o.key, row.created_at)) : [];
  const view: Generation = {
    id: row.id,
    status: row.status,
    model: row.model_name,
    type: row.type,
    output_url: purged ? null : (signed[0]?.url ?? null),
    created_at: row.created_at.toISOString(),
  };
  if (signed.length > 1 && !purged) view.output_urls = signed.map((s) => s.url);
  if (row.status === 'failed') view.error_message = row.error_message;
  if (signed[0]) view.expires_at = signed[0].expiresAt.toISOString();
  return view;
}
