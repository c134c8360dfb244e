#!/usr/bin/env bash
# Builds the released kruise-manager and kruise-daemon v1.9.0, in one go build,
# from the source archive of the upstream tag (../shared/vendor/kruise-v1.9.0-src.tar.gz
# beside the clone) into .cache/cluster/kruise-manager-v1.9.0-<archive hash>/bin/
# (kruise-manager, kruise-daemon) and prints the manager's path; the daemon is
# beside it. The archive is checked against its known sha256 first;
# a binary built from a verified archive is reused as is.
#
# The Go module proxy's github.com/openkruise/kruise@v1.9.0 is another commit
# than the release, so it is never used: without the archive this fails.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

version=v1.9.0
sha=309c9192d0befb4ea9b43c80804416709ad5b8588a4a01356d4e87378086094f
archive="$root/../shared/vendor/kruise-$version-src.tar.gz"

out="$root/.cache/cluster/kruise-manager-$version-${sha:0:16}"
bin="$out/bin/kruise-manager"
if [ -x "$bin" ] && [ -x "$out/bin/kruise-daemon" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$sha" ]; then
  echo "$bin"
  exit 0
fi

[ -f "$archive" ] || fail "kruise-manager $version needs its source archive at $archive (the upstream tag $version as \`git archive\`, top folder kruise-1.9.0/, sha256 $sha)"
actual="$(sha256sum "$archive" | cut -d' ' -f1)"
[ "$actual" = "$sha" ] || fail "$archive has sha256 $actual, not the $sha of the kruise $version release archive"
command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds kruise-manager and kruise-daemon $version into $out/bin)"

mkdir -p "$out"
log="$out/build.log"
src="$(mktemp -d "$out/src.XXXXXX")"
trap 'rm -rf "$src"' EXIT
tar -xzf "$archive" -C "$src" || fail "cannot extract $archive"
[ -f "$src/kruise-1.9.0/go.mod" ] || fail "$archive has no kruise-1.9.0/go.mod"

echo "cluster tier: building kruise-manager and kruise-daemon $version from $archive into $out/bin (log: $log)" >&2
start=$(date +%s)
mkdir -p "$out/bin"
tmpbin="$(mktemp -d "$out/bin.XXXXXX")"
trap 'rm -rf "$src" "$tmpbin"' EXIT
# One build for both: the package main of the repository root is the manager,
# ./cmd/daemon the daemon; go build names each output after its folder.
if ! (cd "$src/kruise-1.9.0" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$tmpbin/" . ./cmd/daemon) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building kruise-manager and kruise-daemon $version failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
mv "$tmpbin/kruise" "$bin"
mv "$tmpbin/daemon" "$out/bin/kruise-daemon"
echo "$sha" > "$out/stamp"
echo "cluster tier: built kruise-manager and kruise-daemon in $(( $(date +%s) - start ))s" >&2
echo "$bin"
