# Source me (`source scripts/node24.sh`): puts Node 24, which n8n 2.x needs,
# first on this shell's PATH. When the shell's Node is older, scripts/dev.mjs
# fetches Node 24 from the npm registry into .cache/node24 once. The npm
# scripts do this by themselves; this is for running the project's tools by
# hand, and for the shell scripts.
eval "$(node "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/scripts/dev.mjs" --env)"
