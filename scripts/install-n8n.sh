#!/usr/bin/env bash
# Installs one n8n version into .cache/n8n-<version> (git-ignored), once.
# Registry quirks: the tree lacks cssomnom (linkedom is pinned to a version
# that does not need it) and 1.x pulls xlsx from an unreachable tarball;
# install scripts are skipped (a Kafka addon downloads a binary), and sqlite3
# is then built against Node 24's headers.
# N8N_NODE=<path to a node binary>: for an n8n line that refuses Node 24 (1.x
# before 1.1xx wants Node <= 22), the install goes to
# .cache/n8n-<version>-node<major> and sqlite3 is built for that node.
set -euo pipefail
version="${1:?usage: install-n8n.sh <n8n version>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/node24.sh"
suffix=""
if [ -n "${N8N_NODE:-}" ]; then suffix="-node$("$N8N_NODE" -p 'process.versions.node.split(".")[0]')"; fi
dir="$root/.cache/n8n-$version$suffix"
if [ -x "$dir/node_modules/.bin/n8n" ] && [ -f "$dir/.ready" ]; then
	exit 0
fi
mkdir -p "$root/.cache"
# Test suites run side by side: one installs, the others wait for it.
exec 9>"$dir.lock"
flock 9
if [ -x "$dir/node_modules/.bin/n8n" ] && [ -f "$dir/.ready" ]; then
	exit 0
fi
mkdir -p "$dir"
cat > "$dir/package.json" <<JSON
{
  "name": "n8n-install-$version",
  "private": true,
  "dependencies": { "n8n": "$version" },
  "overrides": { "linkedom": "0.18.14", "xlsx": "0.18.5" }
}
JSON
echo "Installing n8n $version into .cache/n8n-$version (about 3 minutes, once) ..." >&2
started=$SECONDS
( while sleep 15; do echo "  … still installing n8n $version ($((SECONDS - started)) s)" >&2; done ) &
progress=$!
trap 'kill $progress 2>/dev/null || true' EXIT
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
kill $progress 2>/dev/null || true
if [ -n "${N8N_NODE:-}" ]; then
	echo "Building sqlite3 for Node $("$N8N_NODE" -v) ..." >&2
	(cd "$dir" && env -u npm_config_nodedir PATH="$(dirname "$N8N_NODE"):$PATH" npm rebuild sqlite3 --loglevel=error >&2)
else
	echo "Building sqlite3 for Node $(node -v) ..." >&2
	(cd "$dir" && npm rebuild sqlite3 --loglevel=error >&2)
fi
touch "$dir/.ready"
