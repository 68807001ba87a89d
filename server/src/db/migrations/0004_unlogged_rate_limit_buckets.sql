-- The rate-limit buckets are write-heavy and worth nothing after a crash: every authenticated request
-- (GET /status polls included) updates its key's bucket. As an ordinary table each of those updates
-- made the request's commit wait for a WAL flush; PostgreSQL commits a transaction that wrote only
-- unlogged tables without one. After a crash an unlogged table is emptied, so every key starts again
-- with a full bucket: a client may burst once more, nothing else is lost. Standbys do not see the
-- buckets, and need not: only the primary takes tokens.
alter table rate_limit_buckets set unlogged;
