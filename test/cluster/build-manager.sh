#!/usr/bin/env bash
# Builds a released kruise-manager and kruise-daemon, in one go build, from the
# release's source archive (../shared/vendor/kruise-<version>-src.tar.gz beside
# the clone: the upstream tag's `git archive`; for v1.9.1, tag v1.9.0 with the
# release's one fix applied, as its README says) into .cache/cluster/kruise-manager-<version>-<archive hash>/bin/
# (kruise-manager, kruise-daemon) and prints the manager's path; the daemon is
# beside it. The archive is checked against its known sha256 first;
# a binary built from a verified archive is reused as is.
#
#   build-manager.sh [VERSION]     VERSION: v1.9.1 (default), v1.9.0, v1.8.4 or v1.7.4
#
# The Go module proxy's github.com/openkruise/kruise@v1.9.0 is another commit
# than the release, and it serves no v1.9.1, v1.8.4 or v1.7.4, so it is never
# used: without the archive this fails. v1.9.1 and v1.9.0 share one go.mod and
# go.sum (v1.9.1 changes one file, pkg/client/registry.go), and -trimpath keeps
# the extracted folder's path out of every compile, so the second of the two
# finds nearly every package in the Go build cache.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

version="${1:-v1.9.1}"
# The sha256 of each release's source archive (../shared/vendor/README.md).
case "$version" in
  v1.9.1) sha=e65e06713317a0322c90060925ec39c483c4138d0684f2c389ede1dc947efc11 ;;
  v1.9.0) sha=309c9192d0befb4ea9b43c80804416709ad5b8588a4a01356d4e87378086094f ;;
  v1.8.4) sha=5b79ebd9c5e128bdd953d4bb4788ed875cddcefc333337b77d0e3c4196b4021b ;;
  v1.7.4) sha=4483f065c0faaa9d2e4394557c3a59669f4529265a680003b8d41f5d81894ce0 ;;
  *) fail "kruise-manager $version is not one the tier builds (v1.9.1, v1.9.0, v1.8.4, v1.7.4)" ;;
esac
top="kruise-${version#v}"
archive="$root/../shared/vendor/kruise-$version-src.tar.gz"

out="$root/.cache/cluster/kruise-manager-$version-${sha:0:16}"
bin="$out/bin/kruise-manager"
built() { [ -x "$bin" ] && [ -x "$out/bin/kruise-daemon" ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$sha" ]; }
# shellcheck source=build-once.sh
. "$here/build-once.sh"
reuse_or_lock "$out.lock" "$bin"

[ -f "$archive" ] || fail "kruise-manager $version needs its source archive at $archive (the release's source as \`git archive\`, top folder $top/, sha256 $sha; ../shared/vendor/README.md says how each was made)"
actual="$(sha256sum "$archive" | cut -d' ' -f1)"
[ "$actual" = "$sha" ] || fail "$archive has sha256 $actual, not the $sha of the kruise $version release archive"
command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds kruise-manager and kruise-daemon $version into $out/bin)"

mkdir -p "$out"
log="$out/build.log"
src="$(mktemp -d "$out/src.XXXXXX")"
trap 'rm -rf "$src"' EXIT
tar -xzf "$archive" -C "$src" || fail "cannot extract $archive"
[ -f "$src/$top/go.mod" ] || fail "$archive has no $top/go.mod"

echo "cluster tier: building kruise-manager and kruise-daemon $version from $archive into $out/bin (log: $log)" >&2
start=$(date +%s)
mkdir -p "$out/bin"
tmpbin="$(mktemp -d "$out/bin.XXXXXX")"
trap 'rm -rf "$src" "$tmpbin"' EXIT
# One build for both: the package main of the repository root is the manager,
# ./cmd/daemon the daemon; go build names each output after its folder.
if ! (cd "$src/$top" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$tmpbin/" . ./cmd/daemon) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building kruise-manager and kruise-daemon $version failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
mv "$tmpbin/kruise" "$bin"
mv "$tmpbin/daemon" "$out/bin/kruise-daemon"
echo "$sha" > "$out/stamp"
echo "cluster tier: built kruise-manager and kruise-daemon $version in $(( $(date +%s) - start ))s" >&2
echo "$bin"
