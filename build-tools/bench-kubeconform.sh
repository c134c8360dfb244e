#!/usr/bin/env bash
# The kubeconform binary of `npx projen bench` (the check row compares
# `cdk8s-kruise check` with kubeconform on the same documents and the same
# upstream CRD schemas). Builds github.com/yannh/kubeconform at the version
# pinned here from the Go module proxy into .cache/bench/kubeconform-<version>/,
# with the linker flags of its release build (the version stamp, symbols
# stripped). Prints the binary's path; an existing build is reused. The unit
# tests of `cdk8s-kruise schemas` run it too (test/schema-export), so the
# cluster tier's prebuild builds it early.
set -euo pipefail

version=v0.7.0
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.cache/bench/kubeconform-$version"
fail() { echo "bench: $*" >&2; exit 1; }

if [ -x "$out/kubeconform" ]; then
  echo "$out/kubeconform"
  exit 0
fi
command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH); it builds kubeconform $version into $out"
# one build at a time (the prebuild, the schema tests and the bench may all ask): a second caller waits, then finds it built
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -x "$out/kubeconform" ]; then
  echo "$out/kubeconform"
  exit 0
fi

# the module as the proxy serves it, built with its own go.mod and go.sum
dir="$(go mod download -json "github.com/yannh/kubeconform@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$dir" ] || fail "go mod download github.com/yannh/kubeconform@$version gave no module directory"

mkdir -p "$out"
tmp="$(mktemp -d "$out/build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "bench: building kubeconform $version into $out" >&2
(cd "$dir" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "-w -s -X main.version=$version" -o "$tmp/kubeconform" ./cmd/kubeconform) \
  || fail "building kubeconform $version failed"
mv "$tmp/kubeconform" "$out/kubeconform"
echo "$out/kubeconform"
