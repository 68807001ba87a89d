-- Group commit for submits: several submit requests of one API process, each authenticated,
-- rate-limited, charged and recorded in turn, and all their jobs enqueued by ONE add_jobs call, in ONE
-- transaction. graphile-worker's add_job NOTIFYs, and PostgreSQL serialises the commits of notifying
-- transactions, so one commit per batch instead of one per submit is what lets submits scale.
-- Each item still has its charge, generation row, ledger row and job in the same transaction.
create function mediagen_submit_batch(
  p_items jsonb, p_rate double precision, p_burst double precision, p_max_attempts int
)
returns table (
  i int, key_id uuid, account_id uuid, state text, retry_after double precision,
  id uuid, status text, model_name text, type text, outputs jsonb, error_message text, created_at timestamptz
)
language plpgsql as $$
#variable_conflict use_column
declare
  item jsonb;
  a record;
  price bigint;
  specs graphile_worker.job_spec[] := '{}';
  n int := 0;
begin
  for item in select value from jsonb_array_elements(p_items) loop
    select * into a from mediagen_authenticate(decode(item->>'hash', 'hex'), p_rate, p_burst);
    i := n; key_id := a.key_id; account_id := a.account_id; state := a.state; retry_after := a.retry_after;
    id := null; status := null; model_name := null; type := null; outputs := null;
    error_message := null; created_at := null;
    if a.state = 'ok' then
      price := (item->>'price')::bigint;
      update accounts set balance_micro = balance_micro - price
        where accounts.id = a.account_id and accounts.balance_micro >= price;
      if found then
        insert into generations as g
          (account_id, key_id, kind, model_slug, model_name, task, type, status, params, price_micro)
        values (a.account_id, a.key_id, item->>'kind', item->>'slug', item->>'name', item->>'task',
                item->>'type', 'processing', item->'params', price)
        returning g.id, g.status, g.model_name, g.type, g.outputs, g.error_message, g.created_at
          into id, status, model_name, type, outputs, error_message, created_at;
        insert into ledger (account_id, kind, amount_micro, generation_id, note)
          values (a.account_id, 'charge', -price, id, item->>'note');
        specs := specs || row(item->>'job', json_build_object('generation_id', id), null, null,
                              p_max_attempts, null, null, null)::graphile_worker.job_spec;
      end if;
    end if;
    return next;
    n := n + 1;
  end loop;
  if coalesce(array_length(specs, 1), 0) > 0 then
    perform graphile_worker.add_jobs(specs);
  end if;
end $$;
