#!/usr/bin/env bash
# The Helm binary of `npx projen bench` (the control plane row compares a whole
# `cdk8s synth` of KruiseControlPlane with `helm template` of the kruise chart).
# Builds helm.sh/helm/v3 at the version pinned here from the Go module proxy into
# .cache/bench/helm-<version>/helm, with the linker flags of Helm's release build
# (Makefile `build`): the version stamp, and the Kubernetes version derived from
# the client-go it is built with, so `helm template` assumes a current Kubernetes
# as a released helm does. Prints the binary's path; an existing build is reused.
set -euo pipefail

version=v3.22.0
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.cache/bench/helm-$version"
fail() { echo "bench: $*" >&2; exit 1; }

if [ -x "$out/helm" ]; then
  echo "$out/helm"
  exit 0
fi
command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH); it builds Helm $version into $out"

# the module as the proxy serves it, built with its own go.mod and go.sum
dir="$(go mod download -json "helm.sh/helm/v3@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$dir" ] || fail "go mod download helm.sh/helm/v3@$version gave no module directory"
clientgo="$(cd "$dir" && go list -m -f '{{.Version}}' k8s.io/client-go)"   # v0.37.0 -> Kubernetes 1.37
kmajor=$(( $(echo "${clientgo#v}" | cut -d. -f1) + 1 ))       # as the Makefile: client-go 0.x is Kubernetes 1.x
kminor="$(echo "$clientgo" | cut -d. -f2)"
ldflags="-w -s -X helm.sh/helm/v3/internal/version.version=$version -X helm.sh/helm/v3/internal/version.metadata="
ldflags+=" -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  ldflags+=" -X $pkg.k8sVersionMajor=$kmajor -X $pkg.k8sVersionMinor=$kminor"
done

mkdir -p "$out"
tmp="$(mktemp -d "$out/build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "bench: building Helm $version (Kubernetes $kmajor.$kminor) into $out" >&2
(cd "$dir" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "$ldflags" -o "$tmp/helm" ./cmd/helm) \
  || fail "building Helm $version failed"
mv "$tmp/helm" "$out/helm"
echo "$out/helm"
