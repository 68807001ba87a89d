/** Bodies of the admin API (a server extension, not part of the spec, so not in @mediagen/core). */
import { z } from 'zod';

/**
 * US dollars as the ledger keeps them: whole micro-dollars. 0.0000001 would round to nothing, so an
 * amount with more than 6 decimal places is refused rather than silently rounded.
 */
const Usd = z
  .number({ error: 'must be a number of US dollars' })
  .min(0, { error: 'must be at least 0' })
  .max(1_000_000, { error: 'must be at most 1000000' })
  .refine((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6, {
    error: 'must be a whole number of micro-dollars (at most 6 decimal places)',
  });

export const CreateAccountBody = z.strictObject({ balance_usd: Usd.default(0) });
export const CreateKeyBody = z.strictObject({
  expires_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2027-01-01T00:00:00Z' })
    .optional(),
});
export const AddCreditsBody = z.strictObject({
  amount_usd: Usd.refine((v) => v > 0, { error: 'must be more than 0' }),
});
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
