// The baseline of the server benchmarks: bare Express 5 + pg with one INSERT route and one SELECT
// route, no auth, no validation. Started as its own process by bench/server-throughput.bench.ts.
import { createRequire } from 'node:module';
const require = createRequire(new URL('../../server/package.json', import.meta.url));
const express = require('express');
const pg = require('pg');

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query(
  'create table if not exists bench_rows (id bigserial primary key, body jsonb not null, created_at timestamptz default now())',
);
const app = express();
app.use(express.json());
app.post('/insert', async (req, res) => {
  const { rows } = await pool.query('insert into bench_rows (body) values ($1) returning id, created_at', [
    req.body,
  ]);
  res.status(202).json({ success: true, data: rows[0] });
});
app.get('/select/:id', async (req, res) => {
  const { rows } = await pool.query('select id, body, created_at from bench_rows where id = $1', [
    req.params.id,
  ]);
  res.json({ success: true, data: rows[0] ?? null });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
