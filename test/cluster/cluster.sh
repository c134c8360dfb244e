#!/usr/bin/env bash
# The cluster tier's control plane: etcd, kube-apiserver, kube-scheduler and
# kwok (fake nodes) on 127.0.0.1, and the released kruise-manager for the
# tests to start.
#
#   test/cluster/cluster.sh run [--] COMMAND [ARGS...]
#
# builds the binaries if needed (build.sh, build-manager.sh), picks free
# loopback ports, generates a CA, serving and client certificates and a
# service-account key, starts etcd, kube-apiserver (admission webhooks on),
# the service proxy, kube-scheduler and kwok, waits for /readyz, runs COMMAND
# with
#   KUBECONFIG             admin kubeconfig (client certificate, group system:masters)
#   CLUSTER_DIR            the run's folder (ca.crt, admin.crt, admin.key, logs)
#   CLUSTER_SERVER         https://127.0.0.1:<port>
#   CLUSTER_BIN            folder with kubectl, kube-apiserver, kube-scheduler, kwok, etcd
#   CLUSTER_KRUISE_MANAGER the kruise-manager v1.9.1 binary (started by the tests)
#   CLUSTER_KRUISE_MANAGER_1_9_0 the kruise-manager v1.9.0 binary (kruise-daemon beside each)
#   CLUSTER_ROLLOUT_MANAGER the kruise-rollout-manager v0.6.2 binary (lua_configuration/ beside bin/)
#   CLUSTER_KRUISE_MANAGER_1_8, CLUSTER_KRUISE_MANAGER_1_7, CLUSTER_ROLLOUT_MANAGER_0_5
#                          with CLUSTER_RELEASES=1 only: the older releases' managers (kruise-manager
#                          v1.8.4 and v1.7.4, kruise-rollout-manager v0.5.5) that test:cluster:releases runs
#   CLUSTER_ROUTES         the service proxy's routes file (ClusterIP:port -> endpoints)
#   CLUSTER_PIDS           a file the tests append the pid of every process they start to
# and stops every process (its own and those in CLUSTER_PIDS) when COMMAND
# ends, fails, or the run is interrupted. Its exit code is COMMAND's.
# SKIP_CLUSTER=1 skips the tier (exit 0).
#
# The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins are on:
# the tests run the real kruise-manager behind our webhook configurations.
# CLUSTER_WEBHOOKS=0 turns them off (webhook configurations are then stored
# and validated like any object, but never called). CLUSTER_CONTROLLER_MANAGER=1
# also starts kube-controller-manager (the fresh-cluster tests).
#
# CLUSTER_NODES=1 adds a real node (node.sh): a registry of the locally built
# images on 127.0.0.1, containerd, kubelet and kube-proxy, on a bridge of its
# own (198.18.0.0/24; Services in 198.19.0.0/16). kube-controller-manager
# runs too, kube-apiserver binds the node address 198.18.0.1 instead of
# 127.0.0.1 (pods reach it through the `kubernetes` Service, as in a cluster)
# and calls webhook Services through kube-proxy, not the service proxy, and it
# is the EKS-shaped one (build.sh's bin/eks/kube-apiserver: /version answers
# minor "37+" and gitVersion v1.37.2-eks-<7 hex>), so every real-node file
# runs on a cluster that answers as EKS does. The tests get also
#   CLUSTER_NODE_NAME      the node's name (real-node-1)
#   CLUSTER_NODE_IP        its address (198.18.0.1)
#   CLUSTER_NODE_DIR       its folder: run/containerd.sock, kubelet.cmd, kubelet.pid, pod-logs/, volumes/
#   CLUSTER_REGISTRY       the registry's host:port on 127.0.0.1 (images/images.json lists what it serves)
# and the run puts back what the node changed on the machine when it ends.
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

nodes="${CLUSTER_NODES:-}"
[ "$nodes" = 1 ] && CLUSTER_CONTROLLER_MANAGER=1
if [ "$nodes" = 1 ]; then
  # shellcheck source=node.sh
  source "$here/node.sh"
fi

bin="$(bash "$here/build.sh")"
kubectl="$bin/kubectl"
manager_bin="$(bash "$here/build-manager.sh" v1.9.1)"
manager_1_9_0_bin="$(bash "$here/build-manager.sh" v1.9.0)"
rollout_manager_bin="$(bash "$here/build-rollout-manager.sh")"
if [ "${CLUSTER_RELEASES:-}" = 1 ]; then
  export CLUSTER_KRUISE_MANAGER_1_8 CLUSTER_KRUISE_MANAGER_1_7 CLUSTER_ROLLOUT_MANAGER_0_5
  CLUSTER_KRUISE_MANAGER_1_8="$(bash "$here/build-manager.sh" v1.8.4)"
  CLUSTER_KRUISE_MANAGER_1_7="$(bash "$here/build-manager.sh" v1.7.4)"
  CLUSTER_ROLLOUT_MANAGER_0_5="$(bash "$here/build-rollout-manager.sh" v0.5.5)"
fi
[ "$nodes" = 1 ] && images="$(bash "$here/build-images.sh")"

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
  # Processes the tests started (kruise-manager) first, then ours in reverse start order.
  if [ -f "$dir/pids" ]; then
    while read -r pid; do [ -n "$pid" ] && pids=("$pid" "${pids[@]}"); done < "$dir/pids"
  fi
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$nodes" = 1 ]; then
    node_teardown
    if ! node_verify; then
      echo "cluster tier: the real node left the machine changed (above)" >&2
      [ "$rc" -eq 0 ] && rc=1
    fi
  fi
  if [ "$rc" -ne 0 ] && [ -n "${CLUSTER_KEEP_LOGS:-}" ]; then
    echo "cluster tier: logs kept in $dir" >&2
  elif [ "$nodes" = 1 ] && awk -v b="$dir/" 'index($5, b) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
    echo "cluster tier: $dir still has mounts; not removed" >&2
  else
    rm -rf "$dir"
  fi
  exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- free loopback ports, below the kernel's ephemeral range (ports.js says why)
read -r etcd_client etcd_peer api_port scheduler_port kwok_port kwok_node_port kcm_port \
  kubelet_port kubelet_healthz_port proxy_healthz_port proxy_metrics_port < <(node -e '
  const { freePort } = require(process.argv[1]);
  (async () => { const ports = []; for (let i = 0; i < 11; i++) ports.push(await freePort()); console.log(ports.join(" ")); })()
    .catch(e => { console.error(e.message); process.exit(1); });
' "$here/ports.js") || fail "no free port on 127.0.0.1 could be had"

# --- certificates: one CA; the API server's serving cert; an admin client cert
ssl() { openssl "$@" >>"$dir/openssl.log" 2>&1 || fail "openssl $1 failed (see $dir/openssl.log)"; }
ssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=cluster-tier-ca" \
  -keyout "$dir/ca.key" -out "$dir/ca.crt"
ssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout "$dir/apiserver.key" -out "$dir/apiserver.csr"
if [ "$nodes" = 1 ]; then
  node_requirements
  node_preflight
  node_network_up
  api_address="$NODE_IP"
  # the node address, and the `kubernetes` Service's ClusterIP (the first of the Service range) that pods dial
  extra_sans=",IP:$NODE_IP,IP:198.19.0.1"
else
  api_address=127.0.0.1
  extra_sans=""
fi
printf 'subjectAltName=IP:127.0.0.1%s,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n' "$extra_sans" > "$dir/apiserver.ext"
ssl x509 -req -in "$dir/apiserver.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
  -extfile "$dir/apiserver.ext" -out "$dir/apiserver.crt"
ssl req -newkey rsa:2048 -nodes -subj "/O=system:masters/CN=cluster-tier-admin" -keyout "$dir/admin.key" -out "$dir/admin.csr"
printf 'extendedKeyUsage=clientAuth\n' > "$dir/admin.ext"
ssl x509 -req -in "$dir/admin.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
  -extfile "$dir/admin.ext" -out "$dir/admin.crt"
ssl genrsa -out "$dir/sa.key" 2048
ssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub"

server="https://$api_address:$api_port"
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

admission="--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook"
[ "${CLUSTER_WEBHOOKS:-1}" = 0 ] && admission="--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook"

# The API server calls a webhook Service at its ClusterIP. With no kube-proxy,
# its `cluster` egress goes through the service proxy (HTTP CONNECT on a unix
# socket), which forwards a ClusterIP:port to the local processes that serve it.
echo '{}' > "$dir/routes.json"
cat > "$dir/egress.yaml" <<EGRESS
apiVersion: apiserver.k8s.io/v1beta1
kind: EgressSelectorConfiguration
egressSelections:
- name: cluster
  connection:
    proxyProtocol: HTTPConnect
    transport:
      uds:
        udsName: $dir/service-proxy.sock
EGRESS
if [ "$nodes" = 1 ]; then
  # kube-proxy routes the Service addresses: webhook calls go to the Service as in a cluster, and
  # the `kubernetes` Service's endpoint is the API server's own address (the lease reconciler writes it).
  network=(--service-cluster-ip-range "$NODE_SERVICE_RANGE" --endpoint-reconciler-type lease
    --kubelet-client-certificate "$dir/admin.crt" --kubelet-client-key "$dir/admin.key" --kubelet-preferred-address-types InternalIP)
  node_registry_up "$images"
else
  start service-proxy node "$here/service-proxy.js" "$dir/service-proxy.sock" "$dir/routes.json"
  network=(--service-cluster-ip-range 198.19.0.0/16 --endpoint-reconciler-type none --egress-selector-config-file "$dir/egress.yaml")
fi

apiserver_bin="$bin/kube-apiserver"
[ "$nodes" = 1 ] && apiserver_bin="$bin/eks/kube-apiserver"
start kube-apiserver "$apiserver_bin" \
  --etcd-servers "http://127.0.0.1:$etcd_client" \
  --bind-address "$api_address" --advertise-address "$api_address" --secure-port "$api_port" \
  --tls-cert-file "$dir/apiserver.crt" --tls-private-key-file "$dir/apiserver.key" \
  --client-ca-file "$dir/ca.crt" \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$dir/sa.pub" \
  --service-account-signing-key-file "$dir/sa.key" \
  "${network[@]}" \
  --authorization-mode RBAC "$admission" --allow-privileged=true \
  --cert-dir "$dir/apiserver-certs" --v 1
api_pid=${pids[-1]}

# --- wait for /readyz (at most 120 s)
ready=0
for _ in $(seq 1 240); do
  exited "$etcd_pid" && { tail -n 20 "$dir/etcd.log" >&2; fail "etcd exited at start (port 127.0.0.1:$etcd_client or $etcd_peer taken?)"; }
  exited "$api_pid" && { tail -n 20 "$dir/kube-apiserver.log" >&2; fail "kube-apiserver exited at start (port $api_address:$api_port taken?)"; }
  if "$kubectl" --kubeconfig "$dir/kubeconfig" get --raw /readyz >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.5
done
if [ "$ready" != 1 ]; then
  tail -n 30 "$dir/kube-apiserver.log" >&2
  fail "kube-apiserver was not ready within 120 s (log above)"
fi
echo "cluster tier: kube-apiserver $("$kubectl" --kubeconfig "$dir/kubeconfig" version -o json | node -pe 'JSON.parse(require("fs").readFileSync(0)).serverVersion.gitVersion') ready at $server" >&2

# --- kube-scheduler (binds Pods to the fake nodes) and kwok (plays the kubelet
# of every Node annotated kwok.x-k8s.io/node=fake: node and pod status).
start kube-scheduler "$bin/kube-scheduler" --kubeconfig "$dir/kubeconfig" \
  --authentication-kubeconfig "$dir/kubeconfig" --authorization-kubeconfig "$dir/kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$scheduler_port" --leader-elect=false --v 1
scheduler_pid=${pids[-1]}
cat "$bin/../kwok-stages/"*.yaml "$here/fixtures/kwok-stages.yaml" > "$dir/kwok.yaml"
start kwok "$bin/kwok" --config "$dir/kwok.yaml" --kubeconfig "$dir/kubeconfig" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
  --server-address "127.0.0.1:$kwok_port" --node-port "$kwok_node_port" --cidr 198.18.64.0/18 --node-ip 192.0.2.10
kwok_pid=${pids[-1]}
started=(kube-scheduler kwok)
# --- kube-controller-manager, when asked for (CLUSTER_CONTROLLER_MANAGER=1): a
# cluster as a user has it (Deployments, ReplicaSets, DaemonSets, Endpoints,
# ServiceAccounts, garbage collection, namespace deletion). The node lifecycle
# controller stays off: kwok's fake nodes send no heartbeats, and the tier
# removes the not-ready taint of a new node itself (manager.ts).
if [ "${CLUSTER_CONTROLLER_MANAGER:-}" = 1 ]; then
  start kube-controller-manager "$bin/kube-controller-manager" --kubeconfig "$dir/kubeconfig" \
    --authentication-kubeconfig "$dir/kubeconfig" --authorization-kubeconfig "$dir/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$kcm_port" --leader-elect=false \
    --controllers '*,-nodelifecycle' --service-account-private-key-file "$dir/sa.key" \
    --root-ca-file "$dir/ca.crt" --use-service-account-credentials=false --v 1
  kcm_pid=${pids[-1]}
  started+=(kube-controller-manager)
fi
for name in "${started[@]}"; do
  for _ in $(seq 1 20); do [ -s "$dir/$name.log" ] && break; sleep 0.25; done
done
sleep 1
exited "$scheduler_pid" && { tail -n 20 "$dir/kube-scheduler.log" >&2; fail "kube-scheduler exited at start (log above)"; }
exited "$kwok_pid" && { tail -n 20 "$dir/kwok.log" >&2; fail "kwok exited at start (log above)"; }
if [ -n "${kcm_pid:-}" ] && exited "$kcm_pid"; then
  tail -n 20 "$dir/kube-controller-manager.log" >&2; fail "kube-controller-manager exited at start (log above)"
fi

if [ "$nodes" = 1 ]; then
  node_start
  export CLUSTER_NODE_NAME="$NODE_NAME" CLUSTER_NODE_IP="$NODE_IP" CLUSTER_NODE_DIR="$dir/node" CLUSTER_REGISTRY="$NODE_REGISTRY"
fi

touch "$dir/pids"
export KUBECONFIG="$dir/kubeconfig" CLUSTER_DIR="$dir" CLUSTER_SERVER="$server" CLUSTER_BIN="$bin" \
  CLUSTER_KRUISE_MANAGER="$manager_bin" CLUSTER_KRUISE_MANAGER_1_9_0="$manager_1_9_0_bin" CLUSTER_ROLLOUT_MANAGER="$rollout_manager_bin" CLUSTER_ROUTES="$dir/routes.json" CLUSTER_PIDS="$dir/pids"
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
