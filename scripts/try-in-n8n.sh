#!/usr/bin/env bash
# Packs this package, installs the tarball into a fresh n8n user folder the way
# n8n's community-package installer does (<user folder>/.n8n/nodes), starts the
# sandbox, and runs examples/all-operations.workflow.json with `n8n execute`.
# N8N_VERSION picks the n8n version (default 2.41.1); it is installed on first use.
# N8N_NODE=<node binary> runs n8n with that node (older 1.x refuses Node 24),
# e.g. N8N_VERSION=1.85.4 N8N_NODE=/usr/local/bin/node.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/node24.sh
version="${N8N_VERSION:-2.41.1}"
bash scripts/install-n8n.sh "$version"
suffix=""
if [ -n "${N8N_NODE:-}" ]; then suffix="-node$("$N8N_NODE" -p 'process.versions.node.split(".")[0]')"; fi
n8n_script="$(readlink -f "$root/.cache/n8n-$version$suffix/node_modules/.bin/n8n")"
n8n() { "${N8N_NODE:-node}" "$n8n_script" "$@"; }

work="$(mktemp -d)"
trap 'kill "${sandbox_pid:-0}" 2>/dev/null || true' EXIT
npm run -s build >/dev/null
tarball="$(npm pack --silent --pack-destination "$work")"
echo "Packed $tarball ($(du -k "$work/$tarball" | cut -f1) KiB)"
mkdir -p "$work/user/.n8n/nodes"
(cd "$work/user/.n8n/nodes" && npm init -y >/dev/null && npm install --no-audit --no-fund "$work/$tarball" >/dev/null)

key="try-$(date +%s)-key"
node sandbox/cli.mts --port 0 --key "$key" > "$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 50); do [ -s "$work/sandbox.json" ] && break; sleep 0.1; done
url="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).url' "$work/sandbox.json")"
echo "Sandbox at $url"

cat > "$work/credentials.json" <<JSON
[{ "id": "outreachSandbox", "name": "Outreach sandbox", "type": "outreachSequencesApi", "data": { "apiKey": "$key", "baseUrl": "$url" } }]
JSON
export N8N_USER_FOLDER="$work/user" N8N_DIAGNOSTICS_ENABLED=false N8N_RUNNERS_ENABLED=false DB_SQLITE_POOL_SIZE=1
n8n import:credentials --input="$work/credentials.json"
n8n import:workflow --input="$root/examples/all-operations.workflow.json"
n8n execute --id=outreach-all-operations --rawOutput > "$work/output.txt"
echo "Run data: $work/output.txt"
curl -s "$url/__sandbox/requests" > "$work/requests.json"
echo "Requests the sandbox received: $work/requests.json"
node scripts/summarize-run.mjs "$work/output.txt"
