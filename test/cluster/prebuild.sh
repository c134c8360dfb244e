#!/usr/bin/env bash
# Builds every binary the cluster tier runs (the Kubernetes binaries, kruise-manager
# and kruise-daemon v1.9.1, the tier's default, then v1.9.0 beside it from the
# same Go module and build caches, kruise-rollout-manager) and the real node's images (they
# pack those binaries, so they come last), one after another, each skipped when
# its content-hash stamp is already in .cache/cluster. .ci/run starts it in the
# background at the beginning of the run; cluster.sh calls the same scripts and
# finds them built. The health engines (gopher-lua and Flux's CEL evaluator)
# come first, as the unit tests use them; Flux's source-controller and
# kustomize-controller (the real node's GitOps file), then helm (the real node's
# Helm takeover file). Then the `releases` group: the older releases'
# managers that test:cluster:releases runs (kruise-manager v1.8.4 and v1.7.4
# from ../shared/vendor, kruise-rollout-manager v0.5.5), last because only that
# task, which CI runs late in lane B, needs them.
#
#   prebuild.sh              every group
#   prebuild.sh GROUP...     only those groups (default, releases)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

default=(../health/build-engines.sh build.sh build-manager.sh "build-manager.sh v1.9.0" build-rollout-manager.sh build-images.sh build-flux.sh build-helm.sh)
releases=("build-manager.sh v1.8.4" "build-manager.sh v1.7.4" "build-rollout-manager.sh v0.5.5")

t0=$(date +%s)
[ $# -gt 0 ] || set -- default releases
for group in "$@"; do
  case "$group" in
    default) steps=("${default[@]}") ;;
    releases) steps=("${releases[@]}") ;;
    *) echo "prebuild: no group $group (default, releases)" >&2; exit 2 ;;
  esac
  for step in "${steps[@]}"; do
    read -r -a words <<<"$step"
    start=$(date +%s)
    bash "$here/${words[0]}" "${words[@]:1}" >/dev/null
    echo "prebuild: $step done in $(( $(date +%s) - start ))s (at $(( $(date +%s) - t0 ))s)"
  done
done
