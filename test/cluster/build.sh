#!/usr/bin/env bash
# Builds the cluster tier's binaries (etcd, kube-apiserver, kube-scheduler,
# kube-controller-manager, kubectl, kubelet, kube-proxy, kwok) from the Go modules pinned in test/cluster/tools/go.mod into
# .cache/cluster/<key>/bin, copies kwok's default node and pod Stages from the
# kwok module into .cache/cluster/<key>/kwok-stages, and prints the bin folder.
# bin/eks/kube-apiserver is the same kube-apiserver answering /version as an
# EKS control plane does (minor "37+", gitVersion v1.37.2-eks-<7 hex>), for the
# real node: tools/kube-apiserver-eks (since Kubernetes 1.31 the stamps alone
# no longer reach /version's major and minor), linked with EKS's version
# stamps; only its main package is compiled again.
# A folder whose stamp matches the pins is reused as is. Go modules come from
# the Go module proxy; nothing else is downloaded.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$here/tools"

fail() { echo "cluster tier: $*" >&2; exit 1; }

# "require m vX" or "\tm vX" inside a require block (never a replace line)
modver() { awk -v m="$1" '$1 == "require" && $2 == m { print $3; exit } $1 == m && $2 ~ /^v/ { print $2; exit }' "$tools/go.mod"; }
kube="$(modver k8s.io/kubernetes)"
etcd="$(modver go.etcd.io/etcd/server/v3)"
kwok="$(modver sigs.k8s.io/kwok)"
[ -n "$kube" ] && [ -n "$etcd" ] && [ -n "$kwok" ] || fail "cannot read the pinned versions from $tools/go.mod"

# The stamp covers everything that decides the binaries' content.
stamp="$(cat "$tools/go.mod" "$tools/go.sum" "$tools/etcd/main.go" "$tools/kube-apiserver-eks/main.go" "$here/build.sh" | sha256sum | cut -c1-16)"
# One folder per stamp: clones on different pins (branches, worktrees) sharing one
# .cache never rebuild over each other.
out="$root/.cache/cluster/kubernetes-$kube-etcd-$etcd-$stamp"
bin="$out/bin"

built() {
  [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] \
    && [ -x "$bin/etcd" ] && [ -x "$bin/kube-apiserver" ] && [ -x "$bin/kube-scheduler" ] && [ -x "$bin/kube-controller-manager" ] && [ -x "$bin/kubectl" ] \
    && [ -x "$bin/kubelet" ] && [ -x "$bin/kube-proxy" ] \
    && [ -x "$bin/kwok" ] && [ -x "$bin/eks/kube-apiserver" ] && [ -f "$out/kwok-stages/pod-ready.yaml" ]
}
# shellcheck source=build-once.sh
. "$here/build-once.sh"
reuse_or_lock "$out/lock" "$bin"

command -v go >/dev/null 2>&1 \
  || fail "the Go toolchain is missing (go not on PATH; Go >= 1.26 builds kube-apiserver, kube-scheduler, kube-controller-manager, kubectl, kubelet, kube-proxy, kwok and etcd into $bin)"

log="$out/build.log"
tmp="$(mktemp -d "$out/bin.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

minor="${kube#v1.}"; minor="${minor%%.*}"
# The version the binaries report (what the Kubernetes release build stamps in).
stamps() { # gitVersion gitMinor [gitCommit] -> the -X flags of both version packages
  local f=""
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    f+=" -X $pkg.gitVersion=$1 -X $pkg.gitMajor=1 -X $pkg.gitMinor=$2"
    f+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
    [ -z "${3:-}" ] || f+=" -X $pkg.gitCommit=$3"
  done
  echo "$f"
}
ldflags="-s -w$(stamps "$kube" "$minor")"
# What an EKS control plane answers at /version: the minor with a "+", the
# gitVersion with "-eks-" and the first 7 hex digits of the commit Amazon built
# (v1.31.4-eks-2d5f260 on an EKS 1.31 cluster) and that commit; the digits here
# are ours, the shape is EKS's.
eks_commit=0c1d5e7a4b9f3c2d8e6a1b0c9d8e7f6a5b4c3d2e
eks_version="$kube-eks-${eks_commit:0:7}"
eks_ldflags="-s -w$(stamps "$eks_version" "$minor+" "$eks_commit")"


echo "cluster tier: building etcd $etcd, kube-apiserver, kube-scheduler, kube-controller-manager, kubectl, kubelet and kube-proxy $kube, kwok $kwok into $bin (log: $log)" >&2
start=$(date +%s)
if ! (cd "$tools" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
      ./etcd k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kubectl k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy \
      sigs.k8s.io/kwok/cmd/kwok) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building the control-plane binaries failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
echo "cluster tier: built the binaries in $(( $(date +%s) - start ))s; linking kube-apiserver as $eks_version" >&2
eks_start=$(date +%s)
if ! (cd "$tools" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "$eks_ldflags" \
      -o "$tmp/eks/kube-apiserver" ./kube-apiserver-eks) >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building kube-apiserver $eks_version (tools/kube-apiserver-eks) failed (full log: $log)"
fi
echo "cluster tier: linked kube-apiserver $eks_version in $(( $(date +%s) - eks_start ))s" >&2
# kwok plays nothing without Stages; its defaults ship in the module (kwokctl embeds them).
kwokdir="$(cd "$tools" && GOFLAGS=-mod=readonly go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
rm -rf "$out/kwok-stages" && mkdir -p "$out/kwok-stages"
for f in node/fast/node-initialize pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
  [ -f "$kwokdir/kustomize/stage/$f.yaml" ] || fail "kwok $kwok has no default Stage $f.yaml in $kwokdir/kustomize/stage"
  { cat "$kwokdir/kustomize/stage/$f.yaml"; echo '---'; } > "$out/kwok-stages/$(basename "$f").yaml"
done
rm -rf "$bin"
chmod 755 "$tmp"
mv "$tmp" "$bin"
echo "$stamp" > "$out/stamp"
echo "cluster tier: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
