# Sourced by the build scripts: reuse a build, or build it once when several callers ask at once.
#
#   reuse_or_lock LOCKFILE RESULT
#
# The caller defines `built` (true when its output is complete and its stamp
# matches). When it is built, prints RESULT and exits; otherwise takes LOCKFILE
# (one build at a time per output: the background prebuild and a tier run may
# ask together), then looks again, since the build the caller waited for may be
# this one. Returns holding the lock (fd 9) until the script exits.
reuse_or_lock() {
  if built; then echo "$2"; exit 0; fi
  mkdir -p "$(dirname "$1")"
  exec 9>"$1"
  flock 9
  if built; then echo "$2"; exit 0; fi
}
