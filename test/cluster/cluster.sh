#!/usr/bin/env bash
# The cluster tier's control plane: etcd and kube-apiserver on 127.0.0.1.
#
#   test/cluster/cluster.sh run [--] COMMAND [ARGS...]
#
# builds the binaries if needed (build.sh), picks free loopback ports,
# generates a CA, serving and client certificates and a service-account key,
# starts etcd and kube-apiserver, waits for /readyz, runs COMMAND with
#   KUBECONFIG         admin kubeconfig (client certificate, group system:masters)
#   CLUSTER_DIR        the run's folder (ca.crt, admin.crt, admin.key, logs)
#   CLUSTER_SERVER     https://127.0.0.1:<port>
#   CLUSTER_BIN        folder with kubectl, kube-apiserver, etcd
# and stops both processes when COMMAND ends, fails, or the run is interrupted.
# Its exit code is COMMAND's. SKIP_CLUSTER=1 skips the tier (exit 0).
#
# Admission webhooks are not called (no manager serves them): webhook
# configurations are stored and validated like any object, but the
# MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins are off.
# CLUSTER_WEBHOOKS=1 turns them on, for a run that also starts a manager.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"

fail() { echo "cluster tier: $*" >&2; exit 1; }

[ "${1:-}" = run ] || fail "usage: $0 run [--] COMMAND [ARGS...]"
shift
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || fail "usage: $0 run [--] COMMAND [ARGS...]"

if [ "${SKIP_CLUSTER:-}" = 1 ]; then
  echo "cluster tier: skipped (SKIP_CLUSTER=1)"
  exit 0
fi

for tool in openssl setpriv node; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (needed to start the control plane)"
done

bin="$(bash "$here/build.sh")"
kubectl="$bin/kubectl"

# Remove the folders of earlier runs that were killed outright (their script is gone).
for old in "${TMPDIR:-/tmp}"/cdk8s-kruise-cluster.*; do
  [ -f "$old/owner.pid" ] || continue
  kill -0 "$(cat "$old/owner.pid")" 2>/dev/null || rm -rf "$old"
done
dir="$(mktemp -d "${TMPDIR:-/tmp}/cdk8s-kruise-cluster.XXXXXX")"
echo $$ > "$dir/owner.pid"
pids=()

stop() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$rc" -ne 0 ] && [ -n "${CLUSTER_KEEP_LOGS:-}" ]; then
    echo "cluster tier: logs kept in $dir" >&2
  else
    rm -rf "$dir"
  fi
  exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- free loopback ports (the kernel picks them; bound and released at once)
read -r etcd_client etcd_peer api_port < <(node -e '
  const net = require("net");
  const take = () => new Promise((ok, ko) => { const s = net.createServer(); s.on("error", ko);
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; ok([s, p]); }); });
  Promise.all([take(), take(), take()]).then(r => { r.forEach(([s]) => s.close()); console.log(r.map(([, p]) => p).join(" ")); })
    .catch(e => { console.error(e.message); process.exit(1); });
') || fail "no free port on 127.0.0.1 could be had"

# --- certificates: one CA; the API server's serving cert; an admin client cert
ssl() { openssl "$@" >>"$dir/openssl.log" 2>&1 || fail "openssl $1 failed (see $dir/openssl.log)"; }
ssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=cluster-tier-ca" \
  -keyout "$dir/ca.key" -out "$dir/ca.crt"
ssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout "$dir/apiserver.key" -out "$dir/apiserver.csr"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n' > "$dir/apiserver.ext"
ssl x509 -req -in "$dir/apiserver.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
  -extfile "$dir/apiserver.ext" -out "$dir/apiserver.crt"
ssl req -newkey rsa:2048 -nodes -subj "/O=system:masters/CN=cluster-tier-admin" -keyout "$dir/admin.key" -out "$dir/admin.csr"
printf 'extendedKeyUsage=clientAuth\n' > "$dir/admin.ext"
ssl x509 -req -in "$dir/admin.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
  -extfile "$dir/admin.ext" -out "$dir/admin.crt"
ssl genrsa -out "$dir/sa.key" 2048
ssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub"

server="https://127.0.0.1:$api_port"
cat > "$dir/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: cluster-tier
  cluster: { server: "$server", certificate-authority: "$dir/ca.crt" }
users:
- name: admin
  user: { client-certificate: "$dir/admin.crt", client-key: "$dir/admin.key" }
contexts:
- name: cluster-tier
  context: { cluster: cluster-tier, user: admin }
current-context: cluster-tier
KUBECONFIG

# Children get SIGKILL if this script dies without running its trap.
start() { # name, command...
  local name=$1; shift
  setpriv --pdeathsig KILL -- "$@" >"$dir/$name.log" 2>&1 &
  pids+=($!)
}

exited() { # pid -> true when the process is gone
  ! kill -0 "$1" 2>/dev/null
}

start etcd "$bin/etcd" --name cluster-tier --data-dir "$dir/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "cluster-tier=http://127.0.0.1:$etcd_peer" \
  --unsafe-no-fsync --log-level warn --listen-metrics-urls ""
etcd_pid=${pids[-1]}

admission="--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook"
[ "${CLUSTER_WEBHOOKS:-}" = 1 ] && admission="--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook"

start kube-apiserver "$bin/kube-apiserver" \
  --etcd-servers "http://127.0.0.1:$etcd_client" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
  --tls-cert-file "$dir/apiserver.crt" --tls-private-key-file "$dir/apiserver.key" \
  --client-ca-file "$dir/ca.crt" \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$dir/sa.pub" \
  --service-account-signing-key-file "$dir/sa.key" \
  --service-cluster-ip-range 10.96.0.0/16 --endpoint-reconciler-type none \
  --authorization-mode RBAC "$admission" --allow-privileged=true \
  --cert-dir "$dir/apiserver-certs" --v 1
api_pid=${pids[-1]}

# --- wait for /readyz (at most 120 s)
ready=0
for _ in $(seq 1 240); do
  exited "$etcd_pid" && { tail -n 20 "$dir/etcd.log" >&2; fail "etcd exited at start (port 127.0.0.1:$etcd_client or $etcd_peer taken?)"; }
  exited "$api_pid" && { tail -n 20 "$dir/kube-apiserver.log" >&2; fail "kube-apiserver exited at start (port 127.0.0.1:$api_port taken?)"; }
  if "$kubectl" --kubeconfig "$dir/kubeconfig" get --raw /readyz >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.5
done
if [ "$ready" != 1 ]; then
  tail -n 30 "$dir/kube-apiserver.log" >&2
  fail "kube-apiserver was not ready within 120 s (log above)"
fi
echo "cluster tier: kube-apiserver $("$kubectl" --kubeconfig "$dir/kubeconfig" version -o json | node -pe 'JSON.parse(require("fs").readFileSync(0)).serverVersion.gitVersion') ready at $server" >&2

export KUBECONFIG="$dir/kubeconfig" CLUSTER_DIR="$dir" CLUSTER_SERVER="$server" CLUSTER_BIN="$bin"
# In the background so that a TERM or INT sent to this script alone is acted on
# at once (bash runs traps only between commands, and `wait` is interruptible).
setpriv --pdeathsig TERM -- "$@" &
cmd_pid=$!
pids=("$cmd_pid" "${pids[@]}")
set +e
wait "$cmd_pid"
rc=$?
set -e
exit "$rc"
