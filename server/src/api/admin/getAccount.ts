/** GET /admin/v1/accounts/{account_id} -> 200 {account_id, balance_usd, moderation_calls, keys, ledger} */
import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/accounts.js';
import type { AppContext } from '../../context.js';
import { ApiError, route } from '../errors.js';
import { UUID } from './schemas.js';

export function getAccountRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const accountId = String(req.params.accountId);
    const account = UUID.test(accountId) ? await getAccount(ctx.pool, accountId) : null;
    if (!account) throw new ApiError('NOT_FOUND', `account "${accountId}" not found`);
    res.json({ success: true, data: account });
  });
}
