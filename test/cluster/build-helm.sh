#!/usr/bin/env bash
# Builds the helm v3 command from the Go module proxy (helm.sh/helm/v3, the
# release's module, checked against its pinned go.sum hash) into
#   .cache/cluster/helm-v3.21.4-<hash>/bin/helm
# and prints its path. The release's own go.mod and go.sum decide every
# dependency (-mod=readonly); the version stamps are the ones the release
# Makefile sets (helm version, and the Kubernetes version `helm template`
# assumes). A binary built from the verified module by this script is reused
# as is. Nothing is committed. Real-node test files install a Helm chart with it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

module=helm.sh/helm/v3
version=v3.21.4
sum='h1:T/GcIEXU/gNjJnkITlIZ3e9xqkZjhFTmISuStTZ6+Qg='

key="$( { printf '%s' "$sum"; cat "$0"; } | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/helm-$version-$key"
bin="$out/bin/helm"
built() { [ -x "$bin" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ]; }
# shellcheck source=build-once.sh
. "$here/build-once.sh"
reuse_or_lock "$out/lock" "$bin"

command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds helm $version into $bin)"
mkdir -p "$out"
log="$out/build.log"
work="$(mktemp -d "$out/work.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

if ! (cd "$work" && go mod init cluster-tier/helm >/dev/null 2>&1 \
      && GOFLAGS=-mod=mod go mod download -json "$module@$version" >"$work/download.json") 2>>"$log"; then
  tail -n 20 "$log" >&2
  fail "cannot download $module@$version from the Go module proxy (full log: $log)"
fi
got_sum="$(node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write(d.Sum||"")' "$work/download.json")"
dir="$(node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write(d.Dir||"")' "$work/download.json")"
[ "$got_sum" = "$sum" ] || fail "$module@$version has go.sum hash $got_sum, not the pinned $sum"
[ -d "$dir/cmd/helm" ] || fail "$module@$version has no cmd/helm at $dir"
# The Kubernetes minor `helm template` assumes comes from the release's client-go (v0.X.Y -> 1.X), as its Makefile does.
k8s_minor="$(sed -n 's/^[[:space:]]*k8s\.io\/client-go v0\.\([0-9]*\)\..*/\1/p' "$dir/go.mod" | head -n 1)"
[ -n "$k8s_minor" ] || fail "$module@$version: no k8s.io/client-go in its go.mod"

echo "cluster tier: building helm $version from $module@$version into $bin (log: $log)" >&2
start=$(date +%s)
cp -r "$dir" "$work/src"
chmod -R u+w "$work/src"
mkdir -p "$out/bin"
ldflags="-s -w -X $module/internal/version.version=$version -X $module/internal/version.gitTreeState=clean"
ldflags="$ldflags -X $module/pkg/lint/rules.k8sVersionMajor=1 -X $module/pkg/lint/rules.k8sVersionMinor=$k8s_minor"
ldflags="$ldflags -X $module/pkg/chartutil.k8sVersionMajor=1 -X $module/pkg/chartutil.k8sVersionMinor=$k8s_minor"
if ! (cd "$work/src" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "$ldflags" -o "$bin.tmp" ./cmd/helm) >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building helm $version failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
mv "$bin.tmp" "$bin"
echo "$key" > "$out/stamp"
echo "cluster tier: built helm in $(( $(date +%s) - start ))s" >&2
echo "$bin"
