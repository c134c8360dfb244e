#!/usr/bin/env bash
# Builds health-engines (test/health/engines: the health checks run in
# gopher-lua as Argo CD runs them and in Flux's CEL status evaluator) from the
# Go module proxy, pinned by engines/go.mod and go.sum, into
#   .cache/cluster/health-engines-<stamp>/bin/health-engines
# and prints the binary's path. The stamp (hash of the sources and this
# script) names the folder; a built binary is reused as is. With --if-built it
# only prints the path of a binary already built (nothing when there is none).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$here/engines"

stamp="$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" "$0" | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/health-engines-$stamp"
bin="$out/bin/health-engines"
if [ -x "$bin" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
  echo "$bin"
  exit 0
fi
[ "${1:-}" = "--if-built" ] && exit 0

command -v go >/dev/null 2>&1 || { echo "health engines: the Go toolchain is missing (go not on PATH; it builds $bin)" >&2; exit 1; }
mkdir -p "$out/bin"
# one build at a time (the prebuild and the unit tests may both ask): a second caller waits, then finds it built
exec 9>"$out/lock"
flock 9
if [ -x "$bin" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
  echo "$bin"
  exit 0
fi
log="$out/build.log"
echo "health engines: building gopher-lua and Flux's CEL evaluator into $bin (log: $log)" >&2
start=$(date +%s)
if ! (cd "$src" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$bin.tmp.$$" .) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "health engines: the build failed (Go module proxy unreachable or a compile error; full log: $log)" >&2
  exit 1
fi
mv "$bin.tmp.$$" "$bin"
echo "$stamp" > "$out/stamp"
echo "health engines: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
