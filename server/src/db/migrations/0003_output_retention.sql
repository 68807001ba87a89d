-- Output retention (jobs/tasks/purgeExpiredOutputs.ts): output URLs expire 7 days after the generation;
-- a periodic job deletes the files of older generations and records it here, so /status keeps
-- answering (output_url null) and no process deletes them twice.
alter table generations add column outputs_purged_at timestamptz;
-- Only the rows still to purge, oldest first: what the job scans.
create index generations_outputs_to_purge on generations(created_at)
  where outputs is not null and outputs_purged_at is null;

-- Face crops stored by POST /face-swap/detect (not tied to a generation); a row per stored crop,
-- deleted together with its file once it has expired.
create table face_crops (
  key text primary key,
  created_at timestamptz not null default now()
);
create index face_crops_created on face_crops(created_at);
