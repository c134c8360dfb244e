#!/usr/bin/env bash
# Builds argocd-engine (test/argocd: Argo CD v3.5.8's Lua VM, util/lua, running the
# actions and health scripts of an argocd-cm, and the gitops-engine sync Argo CD
# uses) from the Go module proxy, pinned by test/argocd/go.mod and go.sum, into
#   .cache/cluster/argocd-engine-<stamp>/bin/argocd-engine
# and prints the binary's path. The stamp (hash of the sources and this script)
# names the folder; a built binary is reused as is. With --if-built it only
# prints the path of a binary already built (nothing when there is none).
#
# Cold (empty module and build caches), measured on the 2-core machine, niced,
# at load 10 to 27: 12 min 10 s wall, 376 s user + 86 s system CPU, 236 MB of
# module zips (1.1 GB unpacked). Argo CD's util/lua imports its API client
# (pkg/apiclient/application, for the type of an action's parameters) and with it
# the repo server's client, git, Helm, OCI and cloud SDK packages: 1454 packages,
# of which gitops-engine's sync needs 953 anyway. No narrower package of Argo CD
# runs actions.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

stamp="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" "$0" | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/argocd-engine-$stamp"
bin="$out/bin/argocd-engine"
built() { [ -x "$bin" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; }
if [ "${1:-}" = "--if-built" ]; then
  if built; then echo "$bin"; fi
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "argocd-engine: the Go toolchain is missing (go not on PATH; it builds $bin)" >&2; exit 1; }
mkdir -p "$out/bin"
# one build at a time (the prebuild and the unit tests may both ask): a second caller waits, then finds it built
# shellcheck source=../cluster/build-once.sh
. "$root/test/cluster/build-once.sh"
reuse_or_lock "$out/lock" "$bin"
log="$out/build.log"
echo "argocd-engine: building Argo CD v3.5.8's util/lua and gitops-engine into $bin (log: $log)" >&2
start=$(date +%s)
if ! (cd "$here" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$bin.tmp.$$" .) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "argocd-engine: the build failed (Go module proxy unreachable or a compile error; full log: $log)" >&2
  exit 1
fi
mv "$bin.tmp.$$" "$bin"
echo "$stamp" > "$out/stamp"
echo "argocd-engine: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
