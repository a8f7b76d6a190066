#!/usr/bin/env bash
# Installs one n8n version into .cache/n8n-<version> (git-ignored), once.
# Registry quirks: the tree lacks cssomnom (linkedom is pinned to a version
# that does not need it) and 1.x pulls xlsx from an unreachable tarball;
# install scripts are skipped (a Kafka addon downloads a binary), and sqlite3
# is then built against Node 24's headers.
set -euo pipefail
version="${1:?usage: install-n8n.sh <n8n version>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/node24.sh"
dir="$root/.cache/n8n-$version"
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
echo "Building sqlite3 for Node $(node -v) ..." >&2
(cd "$dir" && npm rebuild sqlite3 --loglevel=error >&2)
touch "$dir/.ready"
