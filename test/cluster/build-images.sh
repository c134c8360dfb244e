#!/usr/bin/env bash
# Builds the images of the cluster tier's real nodes and prints their folder,
# .cache/cluster/images-<stamp>/, holding
#   bin/imagetool   packs images and serves them as a registry on 127.0.0.1
#   layout/         an OCI image layout with every image of images/images.json
# The Go programs of test/cluster/images (imagetool, the test workload
# `server`, the pod sandbox `pause`) are built in one go build from the Go
# module proxy (go-containerregistry pinned in images/go.mod); the layout packs
# them with the kruise-manager and kruise-daemon binaries of v1.9.1 and v1.9.0
# and the kruise-rollout-manager the tier builds (build-manager.sh,
# build-rollout-manager.sh). The
# stamp (hash of the sources, the spec, this script and the stamps of those
# binaries) names the folder; a complete folder is reused as is.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$here/images"

fail() { echo "cluster tier: $*" >&2; exit 1; }

# The kruise releases the node serves, each as kruise-manager-<v> and kruise-daemon-<v> for images.json.
kruise_versions=(v1.9.1 v1.9.0)
kruise_srcs=()
kruise_stamps=()
for v in "${kruise_versions[@]}"; do
  m="$(bash "$here/build-manager.sh" "$v")"
  [ -x "$(dirname "$m")/kruise-daemon" ] || fail "kruise-daemon $v is missing beside $m (build-manager.sh builds both)"
  kruise_srcs+=(-src "kruise-manager-$v=$m" -src "kruise-daemon-$v=$(dirname "$m")/kruise-daemon")
  kruise_stamps+=("$(dirname "$(dirname "$m")")/stamp")
done
rollout="$(bash "$here/build-rollout-manager.sh")"
lua="$(dirname "$(dirname "$rollout")")/lua_configuration"
[ -d "$lua" ] || fail "lua_configuration/ is missing beside $rollout (build-rollout-manager.sh copies it)"

stamp="$( { cat "$src/go.mod" "$src/go.sum" "$src/images.json" "$0"; find "$src" -name '*.go' | sort | xargs cat;
            cat "${kruise_stamps[@]}" "$(dirname "$(dirname "$rollout")")/stamp"; } | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/images-$stamp"
built() { [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -x "$out/bin/imagetool" ] && [ -f "$out/layout/index.json" ]; }
# shellcheck source=build-once.sh
. "$here/build-once.sh"
reuse_or_lock "$out/lock" "$out"

command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds the real-node images into $out)"
mkdir -p "$out"
log="$out/build.log"
tmp="$(mktemp -d "$out/tmp.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "cluster tier: building the real-node images into $out (log: $log)" >&2
start=$(date +%s)
if ! (cd "$src" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
      go build -trimpath -ldflags "-s -w" -o "$tmp/bin/" ./imagetool ./server ./pause) >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "building imagetool, server and pause failed (Go module proxy unreachable or a compile error; full log: $log)"
fi
if ! "$tmp/bin/imagetool" pack -spec "$src/images.json" -layout "$tmp/layout" \
      -src "pause=$tmp/bin/pause" -src "server=$tmp/bin/server" \
      "${kruise_srcs[@]}" \
      -src "kruise-rollout-manager=$rollout" -src "lua_configuration=$lua" >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  fail "packing the real-node images failed (full log: $log)"
fi
rm -rf "$out/bin" "$out/layout"
mv "$tmp/bin" "$out/bin"
mv "$tmp/layout" "$out/layout"
echo "$stamp" > "$out/stamp"
echo "cluster tier: built the real-node images in $(( $(date +%s) - start ))s" >&2
echo "$out"
