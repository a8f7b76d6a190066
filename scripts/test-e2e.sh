#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suites (test/e2e) on Node 24, with real
# n8n installs from .cache/, Debian's chromium, redis-server and PostgreSQL.
# Arguments go to jest, e.g. `npm run test:e2e -- editor`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/node24.sh
exec node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js -c jest.e2e.config.js "$@"
