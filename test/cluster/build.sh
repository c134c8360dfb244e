#!/usr/bin/env bash
# Builds the cluster tier's binaries (etcd, kube-apiserver, kube-scheduler,
# kube-controller-manager, kubectl, kubelet, kube-proxy, kwok) from the Go modules pinned in test/cluster/tools/go.mod into
# .cache/cluster/<key>/bin, copies kwok's default node and pod Stages from the
# kwok module into .cache/cluster/<key>/kwok-stages, and prints the bin folder.
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
stamp="$(cat "$tools/go.mod" "$tools/go.sum" "$tools/etcd/main.go" "$here/build.sh" | sha256sum | cut -c1-16)"
# One folder per stamp: clones on different pins (branches, worktrees) sharing one
# .cache never rebuild over each other.
out="$root/.cache/cluster/kubernetes-$kube-etcd-$etcd-$stamp"
bin="$out/bin"

built() {
  [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] \
    && [ -x "$bin/etcd" ] && [ -x "$bin/kube-apiserver" ] && [ -x "$bin/kube-scheduler" ] && [ -x "$bin/kube-controller-manager" ] && [ -x "$bin/kubectl" ] \
    && [ -x "$bin/kubelet" ] && [ -x "$bin/kube-proxy" ] \
    && [ -x "$bin/kwok" ] && [ -f "$out/kwok-stages/pod-ready.yaml" ]
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
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$kube -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done


echo "cluster tier: building etcd $etcd, kube-apiserver, kube-scheduler, kube-controller-manager, kubectl, kubelet and kube-proxy $kube, kwok $kwok into $bin (log: $log)" >&2
start=$(date +%s)
if ! (cd "$tools" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
      ./etcd k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kubectl k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy \
      sigs.k8s.io/kwok/cmd/kwok) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building the control-plane binaries failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
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
