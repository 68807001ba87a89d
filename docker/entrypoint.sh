#!/bin/sh
# Entry point of the mediagen image. The first argument picks what the container runs:
#
#   all       API and an in-process worker in one process (the default)
#   api       the HTTP API only             (scale with `docker compose up --scale api=N`)
#   worker    the graphile-worker worker only (scale with `docker compose up --scale worker=N`)
#   migrate   apply database migrations, then exit (run once before api/worker on every upgrade)
#   admin     the operator CLI, e.g. `admin --help` (same functions as the /admin/v1 HTTP API)
#   --flag    any other server flag, passed to `node server/dist/main.js`
#   help      this text
#
# Anything else is run as a command (for example `sh`). Each role `exec`s node, so node receives
# SIGTERM from tini directly and shuts down gracefully (running jobs finish or are handed back).
set -eu

cd /app
role="${1:-all}"
[ "$#" -gt 0 ] && shift

case "$role" in
  all) exec node server/dist/main.js "$@" ;;
  api) exec node server/dist/main.js --api "$@" ;;
  worker) exec node server/dist/main.js --worker "$@" ;;
  migrate) exec node server/dist/main.js --migrate-only "$@" ;;
  admin) exec node server/dist/admin/cli.js "$@" ;;
  -*) exec node server/dist/main.js "$role" "$@" ;;
  help | --help | -h)
    sed -n '2,14p' /usr/local/bin/mediagen-entrypoint | sed 's/^# \{0,1\}//'
    ;;
  *) exec "$role" "$@" ;;
esac
