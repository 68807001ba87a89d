/** POST /admin/v1/accounts/{account_id}/credits {amount_usd} -> 200 {account_id, balance_usd} */
import { formatValidationError } from '@mediagen/core';
import type { RequestHandler } from 'express';
import { addCredits } from '../../accounts/accounts.js';
import type { AppContext } from '../../context.js';
import { ApiError, route } from '../errors.js';
import { AddCreditsBody, UUID } from './schemas.js';

export function addCreditsRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const accountId = String(req.params.accountId);
    const parsed = AddCreditsBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const balance = UUID.test(accountId)
      ? await addCredits(ctx.pool, accountId, parsed.data.amount_usd)
      : null;
    if (balance === null) throw new ApiError('NOT_FOUND', `account "${accountId}" not found`);
    res.json({ success: true, data: { account_id: accountId, balance_usd: balance } });
  });
}
