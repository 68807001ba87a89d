-- Counting a moderation call, and taking a failed call's count back, each in one statement
-- (billing/moderationBatch.ts). Both used to be a transaction of three or four round trips (begin,
-- update the count, a charge one call in ten, commit), and the update's lock on the account row was
-- held across the round trips in between. Concurrent calls of one account count one after another,
-- so each waited for every earlier call's round trips, taken by an API process that was busy with
-- the burst itself: in a burst of 20 text calls a call waited up to 0.2 s for its count. Now the lock
-- is held for the statement and its commit only.
--
-- The price of the n-th call is core's rule (moderationChargeForCall: the first p_free calls are free,
-- then every p_batch-th call pays p_batch_price for its batch), called with core's MODERATION_LIMITS;
-- a test checks that these functions charge what core's rule says for every call number.

-- Counts one successful call of the account. When the call completes a batch the balance cannot pay,
-- nothing is counted or charged: counted is false, with the price and the balance.
create function mediagen_count_moderation_call(
  p_account uuid, p_free bigint, p_batch bigint, p_batch_price bigint
)
returns table (counted boolean, calls bigint, price_micro bigint, balance_micro bigint)
language plpgsql as $$
declare
  n bigint;
  bal bigint;
  price bigint;
begin
  select a.moderation_calls + 1, a.balance_micro into n, bal
    from accounts a where a.id = p_account for update;
  if not found then
    raise exception 'account % vanished', p_account;
  end if;
  price := case when n > p_free and (n - p_free) % p_batch = 0 then p_batch_price else 0 end;
  if price > bal then
    return query select false, n - 1, price, bal;
    return;
  end if;
  update accounts set moderation_calls = n, balance_micro = accounts.balance_micro - price
   where id = p_account;
  if price > 0 then
    insert into ledger (account_id, kind, amount_micro, note)
    values (p_account, 'moderation_batch', -price, format('moderation calls %s-%s', n - p_batch + 1, n));
  end if;
  return query select true, n, price, bal - price;
end $$;

-- Takes back one counted call that then failed. If the count it takes back had completed a batch,
-- that batch's charge is refunded with a ledger row.
create function mediagen_uncount_moderation_call(
  p_account uuid, p_free bigint, p_batch bigint, p_batch_price bigint
)
returns table (calls bigint, refund_micro bigint)
language plpgsql as $$
declare
  n bigint;
  refund bigint;
begin
  select a.moderation_calls into n from accounts a where a.id = p_account for update;
  if n is null or n = 0 then
    raise exception 'account % has no moderation call to take back', p_account;
  end if;
  refund := case when n > p_free and (n - p_free) % p_batch = 0 then p_batch_price else 0 end;
  update accounts set moderation_calls = n - 1, balance_micro = accounts.balance_micro + refund
   where id = p_account;
  if refund > 0 then
    insert into ledger (account_id, kind, amount_micro, note)
    values (p_account, 'refund', refund, format(
      'moderation calls %s-%s: a counted call failed, the batch is not complete', n - p_batch + 1, n));
  end if;
  return query select n - 1, refund;
end $$;
