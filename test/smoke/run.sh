#!/usr/bin/env bash
# `npx projen test:languages`: build every jsii package, then prove each one
# the way a user would consume it.
#
#   TypeScript  test/smoke/reference-app.ts (jest) writes dist/smoke/typescript.k8s.yaml
#   Python      a fresh venv, pip install of the wheel from dist/python, test/python/app.py
#   Java        test/java/pom.xml, a Maven project resolving the artifact from dist/java
#   Go          test/go/go.mod, a Go module with a replace to the module in dist/go
#
# Each language writes dist/smoke/<language>.k8s.yaml; each must be
# byte-identical to the TypeScript output. Then the README's quick start
# programs in Python, Java and Go run, each compared with the TypeScript one.
#
# SMOKE_SKIP_PACKAGE=1 reuses the packages already in dist/ (after a
# `npx projen compile && npx projen package-all`).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
OUT="$ROOT/dist/smoke"
EXPECTED="$OUT/typescript.k8s.yaml"

# The jsii runtimes start node; keep its end-of-life banner out of the logs.
JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')"
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION

passed=0
failed=0
timings=()

# step NAME COMMAND...: run, time, fail the script when it fails.
step() {
  local name="$1"; shift
  local start=$SECONDS
  echo "==> $name"
  if ! "$@"; then
    echo "FAILED: $name" >&2
    exit 1
  fi
  timings+=("$name: $((SECONDS - start))s")
}

# smoke LANGUAGE COMMAND...: run a language's app, then compare its YAML.
smoke() {
  local lang="$1"; shift
  local actual="$OUT/$lang.k8s.yaml"
  local start=$SECONDS
  echo "==> smoke test: $lang"
  rm -f "$actual"
  "$@"
  local status=$?
  echo # the runtimes may end their stderr without a newline
  if [ "$status" -ne 0 ]; then
    echo "FAILED: $lang: the app did not run" >&2
    failed=$((failed + 1))
  elif ! cmp -s "$EXPECTED" "$actual"; then
    echo "FAILED: $lang: $actual differs from $EXPECTED" >&2
    diff -u "$EXPECTED" "$actual" | head -60 >&2
    failed=$((failed + 1))
  else
    echo "ok: $lang output is byte-identical to TypeScript ($(wc -c <"$actual") bytes)"
    passed=$((passed + 1))
  fi
  timings+=("smoke test $lang: $((SECONDS - start))s")
}

python_app() {
  local venv="$OUT/python-venv"
  rm -rf "$venv"
  python3 -m venv "$venv" &&
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
      -c test/python/constraints.txt "$(ls -t "$ROOT"/dist/python/cdk8s_kruise-*.whl | head -1)" &&
    "$venv/bin/python" test/python/app.py "$OUT/python.k8s.yaml"
}

java_app() {
  # Our artifact must come from dist/java, never from an earlier copy in the cache.
  rm -rf "$ROOT/.cache/m2/io/github/cdk8skruise"
  mvn --batch-mode --quiet -f test/java/pom.xml \
    -Dmaven.repo.local="$ROOT/.cache/m2" \
    -Dcdk8s-kruise.repository="file://$ROOT/dist/java" \
    -Dcdk8s-kruise.version="$(node -p 'require("./package.json").version')" \
    -Dsmoke.out="$OUT/java.k8s.yaml" \
    compile exec:exec
}

go_app() {
  (cd test/go && go run . "$OUT/go.k8s.yaml")
}

mkdir -p "$OUT"
if [ "${SMOKE_SKIP_PACKAGE:-}" != "1" ]; then
  step "jsii compile" npx projen compile
  step "package-all (js, java, python, go)" npx projen package-all
fi
step "TypeScript reference" npx jest --coverage=false --ci test/smoke/reference-app.test.ts
[ -s "$EXPECTED" ] || { echo "FAILED: $EXPECTED was not written" >&2; exit 1; }

smoke python python_app
smoke java java_app
smoke go go_app

# The README's quick start in Python, Java and Go: whole programs, each run in a
# folder of its own where it writes dist/ with app.synth(), which must equal the
# TypeScript quick start's dist/, file by file (test/smoke/readme-programs.ts).
README_OUT="$OUT/readme"
step "README programs (TypeScript quick start)" npx ts-node --transpile-only --project test/tsconfig.json test/smoke/readme-programs.ts "$README_OUT"

readme_python() {
  (cd "$README_OUT/python" && "$OUT/python-venv/bin/python" main.py)
}

readme_java() {
  mvn --batch-mode --quiet -f test/java/pom.xml \
    -Dmaven.repo.local="$ROOT/.cache/m2" \
    -Dcdk8s-kruise.repository="file://$ROOT/dist/java" \
    -Dcdk8s-kruise.version="$(node -p 'require("./package.json").version')" \
    -Dsmoke.main=Main \
    -Dsmoke.sources="$README_OUT/java/src/main/java" \
    -Dsmoke.build="$README_OUT/java/target" \
    -Dsmoke.workdir="$README_OUT/java" \
    compile exec:exec
}

readme_go() {
  (cd "$README_OUT/go" && go run .)
}

# readme LANGUAGE COMMAND...: run the README's program of a language, then compare its dist/.
readme() {
  local lang="$1"; shift
  local start=$SECONDS
  echo "==> README program: $lang"
  rm -rf "$README_OUT/$lang/dist"
  "$@"
  local status=$?
  echo
  if [ "$status" -ne 0 ]; then
    echo "FAILED: README $lang program: it did not run" >&2
    failed=$((failed + 1))
  elif ! diff -r "$README_OUT/typescript/dist" "$README_OUT/$lang/dist" >/dev/null; then
    echo "FAILED: README $lang program: its dist/ differs from the TypeScript quick start's" >&2
    diff -ru "$README_OUT/typescript/dist" "$README_OUT/$lang/dist" | head -60 >&2
    failed=$((failed + 1))
  else
    echo "ok: README $lang program writes the TypeScript quick start's dist/ ($(ls "$README_OUT/$lang/dist" | tr '\n' ' '))"
    passed=$((passed + 1))
  fi
  timings+=("README program $lang: $((SECONDS - start))s")
}

readme python readme_python
readme java readme_java
readme go readme_go

echo
echo "timings:"
printf '  %s\n' "${timings[@]}"
echo "languages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
