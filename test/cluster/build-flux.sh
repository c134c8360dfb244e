#!/usr/bin/env bash
# Builds Flux's source-controller and kustomize-controller v1.9.0 (Flux 2.9.0:
# both on Kubernetes 0.36.1 libraries, so the second build reuses most of the
# first; builds with Go 1.26; the later 1.9.x source-controllers need a
# github.com/fluxcd/pkg/artifact release the Go module proxy does not serve)
# into
#   .cache/cluster/flux-v1.9.0-<hash>/bin/{source-controller,kustomize-controller}
#   .cache/cluster/flux-v1.9.0-<hash>/crds/   (each module's config/crd/bases)
# and prints that folder. Each module is checked against its pinned go.sum hash.
# A release module replaces its api module with ./api, which the module's zip
# leaves out (a nested module); the api module of the same version is put
# there, which rebuilds the release's tree. Builds use the release's own go.sum
# (-mod=readonly). Nothing upstream is committed.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

version=v1.9.0
# module, its go.sum hash, its api module's go.sum hash
pins=(
  "github.com/fluxcd/source-controller h1:5msg2yyjVYDULZos+2ve8MZzcSqTpusiXmrOeBhc9yY= h1:kO5elmtCk227YKAfpTY+8Q6rgozOYmeyRRskGZBEbbo="
  "github.com/fluxcd/kustomize-controller h1:WfM+bQUGUGW2qyrrTgh2bIVSZSPmc3JC7234K8NiTWQ= h1:thrGRwrUWpEcvVWJd6xxEcIpcOVvre1JCmMY+tl+MF8="
)

key="$( { printf '%s\n' "${pins[@]}"; cat "$0"; } | sha256sum | cut -c1-16)"
out="$root/.cache/cluster/flux-$version-$key"
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ] && [ -x "$out/bin/source-controller" ] && [ -x "$out/bin/kustomize-controller" ]; then
  echo "$out"
  exit 0
fi

command -v go >/dev/null 2>&1 || fail "the Go toolchain is missing (go not on PATH; it builds Flux's controllers into $out)"
mkdir -p "$out"
# one build at a time (the prebuild and a test may both ask): a second caller waits, then finds it built
exec 9>"$out/lock"
flock 9
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ] && [ -x "$out/bin/source-controller" ] && [ -x "$out/bin/kustomize-controller" ]; then
  echo "$out"
  exit 0
fi
log="$out/build.log"
work="$(mktemp -d "$out/work.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
: >"$log"
(cd "$work" && go mod init cluster-tier/flux >/dev/null 2>&1) || fail "go mod init failed in $work"

# field of `go mod download -json` output
field() { node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));process.stdout.write(String(d[process.argv[2]]||""))' "$1" "$2"; }
download() { # module@version -> json file
  local f="$work/dl-$(printf '%s' "$1" | tr '/@' '__').json"
  (cd "$work" && GOFLAGS=-mod=mod go mod download -json "$1" >"$f") 2>>"$log" || { tail -n 20 "$log" >&2; fail "cannot download $1 from the Go module proxy (full log: $log)"; }
  echo "$f"
}

echo "cluster tier: building Flux source-controller and kustomize-controller $version into $out (log: $log)" >&2
start=$(date +%s)
mkdir -p "$work/bin" "$work/crds"
for pin in "${pins[@]}"; do
  read -r module sum apisum <<<"$pin"
  name="${module##*/}"
  main="$(download "$module@$version")"
  api="$(download "$module/api@$version")"
  [ "$(field "$main" Sum)" = "$sum" ] || fail "$module@$version has go.sum hash $(field "$main" Sum), not the pinned $sum"
  [ "$(field "$api" Sum)" = "$apisum" ] || fail "$module/api@$version has go.sum hash $(field "$api" Sum), not the pinned $apisum"
  src="$work/$name"
  cp -r "$(field "$main" Dir)" "$src"
  cp -r "$(field "$api" Dir)" "$src/api"
  chmod -R u+w "$src"
  cp "$src"/config/crd/bases/*.yaml "$work/crds/"
  if ! (cd "$src" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
        go build -trimpath -ldflags "-s -w" -o "$work/bin/$name" .) >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    fail "building $name $version failed (Go module proxy unreachable or a compile error; full log: $log)"
  fi
  echo "cluster tier: built $name in $(( $(date +%s) - start ))s" >&2
done
rm -rf "$out/bin" "$out/crds"
mv "$work/bin" "$out/bin"
mv "$work/crds" "$out/crds"
echo "$key" > "$out/stamp"
echo "cluster tier: built Flux's controllers in $(( $(date +%s) - start ))s" >&2
echo "$out"
