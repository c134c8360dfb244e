#!/usr/bin/env bash
# Builds a released kruise-rollout-manager from the Go module proxy
# (github.com/openkruise/rollouts@<version>, whose origin is the release tag's
# commit) into
#   .cache/cluster/kruise-rollout-manager-<version>-<module hash>/bin/kruise-rollout-manager
# with the Lua scripts the image bakes in (lua_configuration/, read from the
# manager's working directory) next to it, and prints the binary's path. The
# module is checked against its pinned go.sum hash and origin commit first; a
# binary built from a verified module is reused as is. Nothing is committed.
#
#   build-rollout-manager.sh [VERSION]     VERSION: v0.6.2 (default) or v0.5.5
#
# Each pin's commit is the upstream tag's (git rev-parse <tag>^{commit} in
# openkruise/rollouts), which the proxy's .info Origin names too.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

module=github.com/openkruise/rollouts
version="${1:-v0.6.2}"
case "$version" in
  v0.6.2) sum='h1:fRhRnFa+tyReN6TXxQJ4913rtjDTt2Fc7b0QStHRd3k='; commit=6f9f871d13b09067eba3f7cf192fac3117af072e ;;
  v0.5.5) sum='h1:axUUXg4OJIiiaPjj+KLS6KsLXAk9dor+qNheMMEKXZg='; commit=163895a6c9e46af700d13e4d83e3afd1bd695b6c ;;
  *) fail "kruise-rollout-manager $version is not one the tier builds (v0.6.2, v0.5.5)" ;;
esac

key="$(printf '%s' "$sum" | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/kruise-rollout-manager-$version-$key"
bin="$out/bin/kruise-rollout-manager"
built() { [ -x "$bin" ] && [ -d "$out/lua_configuration" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$sum" ]; }
# shellcheck source=build-once.sh
. "$here/build-once.sh"
reuse_or_lock "$out.lock" "$bin"

command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds kruise-rollout-manager $version into $bin)"
mkdir -p "$out"
log="$out/build.log"
work="$(mktemp -d "$out/work.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# A scratch module so that `go mod download` resolves the release from the proxy, verified by go.sum.
if ! (cd "$work" && go mod init cluster-tier/rollout-manager >/dev/null 2>&1 \
      && GOFLAGS=-mod=mod go mod download -json "$module@$version" >"$work/download.json") 2>>"$log"; then
  tail -n 20 "$log" >&2
  fail "cannot download $module@$version from the Go module proxy (full log: $log)"
fi
got_sum="$(node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write(d.Sum||"")' "$work/download.json")"
got_commit="$(node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write((d.Origin&&d.Origin.Hash)||"")' "$work/download.json")"
dir="$(node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write(d.Dir||"")' "$work/download.json")"
[ "$got_sum" = "$sum" ] || fail "$module@$version has go.sum hash $got_sum, not the pinned $sum"
if [ -n "$got_commit" ] && [ "$got_commit" != "$commit" ]; then fail "$module@$version comes from commit $got_commit, not the release commit $commit"; fi
[ -f "$dir/main.go" ] || fail "$module@$version has no main.go at $dir"

echo "cluster tier: building kruise-rollout-manager $version from $module@$version into $bin (log: $log)" >&2
start=$(date +%s)
cp -r "$dir" "$work/src"
chmod -R u+w "$work/src"
mkdir -p "$out/bin"
if ! (cd "$work/src" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$bin.tmp" .) >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building kruise-rollout-manager $version failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
rm -rf "$out/lua_configuration"
cp -r "$work/src/lua_configuration" "$out/lua_configuration"
mv "$bin.tmp" "$bin"
echo "$sum" > "$out/stamp"
echo "cluster tier: built kruise-rollout-manager $version in $(( $(date +%s) - start ))s" >&2
echo "$bin"
