/** POST /admin/v1/accounts {balance_usd} -> 201 {account_id, balance_usd} */
import { formatValidationError } from '@mediagen/core';
import type { RequestHandler } from 'express';
import { createAccount } from '../../accounts/accounts.js';
import type { AppContext } from '../../context.js';
import { ApiError, route } from '../errors.js';
import { CreateAccountBody } from './schemas.js';

export function createAccountRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const parsed = CreateAccountBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('VALIDATION_ERROR', formatValidationError(parsed.error));
    const a = await createAccount(ctx.pool, parsed.data.balance_usd);
    res.status(201).json({ success: true, data: { account_id: a.accountId, balance_usd: a.balanceUsd } });
  });
}
