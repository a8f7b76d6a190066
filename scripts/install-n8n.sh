#!/usr/bin/env bash
# Installs n8n into .cache/n8n-<version> (git-ignored), once per version:
# `bash scripts/install-n8n.sh [version …]`; with no version, the two the
# end-to-end suites run, side by side. The work is installN8n in
# scripts/n8n/install.mts, which npm start uses too.
# N8N_NODE=<path to a node binary>: for an n8n line that refuses Node 24 (1.x
# before 1.1xx wants Node <= 22), the install goes to
# .cache/n8n-<version>-node<major> and sqlite3 is built for that node.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/node24.sh"
exec node "$root/scripts/n8n/install.mts" install "$@"
