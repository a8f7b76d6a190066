#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suites (test/e2e) on Node 24, with real
# n8n installs from .cache/, Debian's chromium, redis-server and PostgreSQL,
# then the secret scan over everything they printed and left in artifacts/.
# Arguments go to jest, e.g. `npm run test:e2e -- editor`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/node24.sh
mkdir -p artifacts/e2e
# Both n8n lines, installed into .cache/ once (a few minutes each, side by side)
# before any suite starts, so that no suite spends its time limit installing.
bash scripts/install-n8n.sh
status=0
node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js -c jest.e2e.config.js "$@" 2>&1 \
	| tee artifacts/e2e/jest-output.log || status=$?
node test/secrets/scan.mts artifacts || status=1
exit "$status"
