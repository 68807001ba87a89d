#!/bin/sh
# Entry point of the mediagen n8n image (docker/n8n.Dockerfile). Before n8n starts it:
#  1. installs n8n-nodes-mediagen into ~/.n8n/nodes/node_modules (fresh from the image every start);
#  2. imports a "MediaGen API" credential pointing at MEDIAGEN_API_URL, when it is new or its key changed
#     (docker/n8n/mediagen-credential.mjs decides and writes the file n8n imports);
# then hands over to the n8n image's own entrypoint with the same arguments.
set -eu

n8n_dir="${N8N_USER_FOLDER:-/home/node}/.n8n"
nodes_dir="$n8n_dir/nodes/node_modules"
mkdir -p "$nodes_dir"
rm -rf "$nodes_dir/n8n-nodes-mediagen"
cp -R /opt/mediagen/n8n-nodes-mediagen "$nodes_dir/n8n-nodes-mediagen"
[ -f "$n8n_dir/nodes/package.json" ] || printf '{"name":"installed-nodes","private":true}\n' >"$n8n_dir/nodes/package.json"
echo "[mediagen] n8n-nodes-mediagen installed in $nodes_dir"

credential_file="$(node /opt/mediagen/mediagen-credential.mjs "$n8n_dir/mediagen")"
if [ -n "$credential_file" ]; then
  n8n import:credentials --input="$credential_file"
  node /opt/mediagen/mediagen-credential.mjs "$n8n_dir/mediagen" --imported
  rm -f "$credential_file"
fi

exec /docker-entrypoint.sh "$@"
