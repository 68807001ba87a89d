-- Accounts, keys, the ledger, generations, idempotency keys, rate-limit buckets and settings.
-- Money is integer micro-dollars (1 USD = 1 000 000).

create table accounts (
  id uuid primary key default gen_random_uuid(),
  balance_micro bigint not null default 0 check (balance_micro >= 0),
  moderation_calls bigint not null default 0 check (moderation_calls >= 0),
  created_at timestamptz not null default now()
);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id),
  key_hash bytea not null unique,
  key_prefix text not null,
  disabled_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz not null default now()
);
create index api_keys_account on api_keys(account_id);

create table generations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id),
  key_id uuid references api_keys(id),
  kind text not null check (kind in ('generation', 'face-swap')),
  model_slug text not null,
  model_name text not null,
  task text not null,
  type text not null check (type in ('image', 'video', 'audio')),
  status text not null check (status in ('queued', 'processing', 'completed', 'failed')),
  params jsonb not null,
  price_micro bigint not null check (price_micro >= 0),
  outputs jsonb,
  error_message text,
  attempts int not null default 0,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index generations_account on generations(account_id, created_at desc);

-- Append-only: the balance always equals the sum of an account's rows.
create table ledger (
  id bigserial primary key,
  account_id uuid not null references accounts(id),
  kind text not null check (kind in ('top_up', 'charge', 'refund', 'moderation_batch')),
  amount_micro bigint not null,
  generation_id uuid references generations(id),
  note text,
  created_at timestamptz not null default now()
);
create index ledger_account on ledger(account_id, id);
-- A generation is charged at most once and refunded at most once, whatever retries happen.
create unique index ledger_one_charge on ledger(generation_id) where kind = 'charge';
create unique index ledger_one_refund on ledger(generation_id) where kind = 'refund';

create function ledger_is_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the ledger is append-only';
end $$;
create trigger ledger_append_only before update or delete on ledger
  for each row execute function ledger_is_append_only();

-- Idempotency-Key extension: one row per (account, key) for 24 hours.
create table idempotency_keys (
  account_id uuid not null references accounts(id),
  key text not null,
  request_hash text not null,
  generation_id uuid not null references generations(id),
  created_at timestamptz not null default now(),
  primary key (account_id, key)
);

-- Token buckets of the per-key rate limit (shared by every API process).
create table rate_limit_buckets (
  key_id uuid primary key references api_keys(id),
  tokens double precision not null,
  updated_at timestamptz not null
);

-- Values every process must agree on (the URL signing secret when not configured).
create table settings (
  name text primary key,
  value text not null
);

-- Worker processes and the graphile-worker worker ids they own, with a heartbeat, so that a
-- process that died holding jobs can have them unlocked by its peers (see jobs/recovery.ts).
create table worker_processes (
  id text primary key,
  worker_ids text[] not null default '{}',
  last_seen timestamptz not null default now()
);

-- Authentication and rate limiting in one round trip: finds the key by hash, takes one token from
-- its bucket when the key is usable, and says how long to wait when the bucket is empty.
create function mediagen_authenticate(p_hash bytea, p_rate double precision, p_burst double precision)
returns table (key_id uuid, account_id uuid, state text, retry_after double precision)
language plpgsql as $$
#variable_conflict use_column
declare
  k api_keys%rowtype;
  t double precision;
begin
  select * into k from api_keys where key_hash = p_hash;
  if not found then
    return query select null::uuid, null::uuid, 'unknown'::text, 0::double precision;
    return;
  end if;
  if k.disabled_at is not null then
    return query select k.id, k.account_id, 'disabled'::text, 0::double precision;
    return;
  end if;
  if k.expires_at is not null and k.expires_at <= now() then
    return query select k.id, k.account_id, 'expired'::text, 0::double precision;
    return;
  end if;
  if p_rate is null or p_rate <= 0 then
    return query select k.id, k.account_id, 'ok'::text, 0::double precision;
    return;
  end if;
  insert into rate_limit_buckets as b (key_id, tokens, updated_at)
    values (k.id, p_burst - 1, clock_timestamp())
  on conflict (key_id) do update set
    tokens = least(p_burst, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * p_rate) - 1,
    updated_at = clock_timestamp()
  returning tokens into t;
  if t >= 0 then
    return query select k.id, k.account_id, 'ok'::text, 0::double precision;
  else
    -- Refused: give the token back so refused calls do not dig the bucket deeper.
    update rate_limit_buckets set tokens = t + 1 where rate_limit_buckets.key_id = k.id;
    return query select k.id, k.account_id, 'limited'::text, (-t) / p_rate;
  end if;
end $$;
