/** POST /admin/v1/accounts/{account_id}/keys {expires_at?} -> 201 {key_id, api_key} (shown once). */
import { formatValidationError } from '@mediagen/core';
import type { RequestHandler } from 'express';
import { accountExists } from '../../accounts/accounts.js';
import { createApiKey } from '../../accounts/apiKeys.js';
import type { AppContext } from '../../context.js';
import { ApiError, route } from '../errors.js';
import { CreateKeyBody, UUID } from './schemas.js';

export function createKeyRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const accountId = String(req.params.accountId);
    if (!UUID.test(accountId) || !(await accountExists(ctx.pool, accountId))) {
      throw new ApiError('NOT_FOUND', `account "${accountId}" not found`);
    }
    const parsed = CreateKeyBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const expiresAt = parsed.data.expires_at ? new Date(parsed.data.expires_at) : null;
    const k = await createApiKey(ctx.pool, accountId, expiresAt);
    res.status(201).json({
      success: true,
      data: { key_id: k.keyId, api_key: k.apiKey, expires_at: expiresAt?.toISOString() ?? null },
    });
  });
}
