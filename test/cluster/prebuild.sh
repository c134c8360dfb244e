#!/usr/bin/env bash
# Builds every binary the cluster tier runs (the Kubernetes binaries, kruise-manager
# and kruise-daemon, kruise-rollout-manager) and the real node's images (they
# pack those binaries, so they come last), one after another, each skipped when
# its content-hash stamp is already in .cache/cluster. .ci/run starts it in the
# background at the beginning of the run; cluster.sh calls the same scripts and
# finds them built.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for script in build.sh build-manager.sh build-rollout-manager.sh build-images.sh; do
  start=$(date +%s)
  bash "$here/$script" >/dev/null
  echo "prebuild: $script done in $(( $(date +%s) - start ))s"
done
