/** POST /admin/v1/keys/{key_id}/disable -> 200 {key_id, disabled: true} */
import type { RequestHandler } from 'express';
import { disableApiKey } from '../../accounts/apiKeys.js';
import type { AppContext } from '../../context.js';
import { ApiError, route } from '../errors.js';
import { UUID } from './schemas.js';

export function disableKeyRoute(ctx: AppContext): RequestHandler {
  return route(async (req, res) => {
    const keyId = String(req.params.keyId);
    if (!UUID.test(keyId) || !(await disableApiKey(ctx.pool, keyId))) {
      throw new ApiError('NOT_FOUND', `key "${keyId}" not found`);
    }
    res.json({ success: true, data: { key_id: keyId, disabled: true } });
  });
}
