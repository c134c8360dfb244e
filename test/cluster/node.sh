#!/usr/bin/env bash
# A real node for the cluster tier: a registry of the locally built images on
# 127.0.0.1, containerd, kubelet and kube-proxy on this machine, on a network
# of its own that never leaves the machine.
#
# cluster.sh sources this file when CLUSTER_NODES=1 and calls, in order,
#   node_requirements   install what is missing (apt-get), or stop with one line naming it
#   node_preflight      clean up after a run that was killed outright; refuse to share the machine with another node
#   node_network_up     bridge, routes and the guard chains (before kube-apiserver binds the node address)
#   node_registry_up    the image registry (before containerd, whose config names it)
#   node_start          containerd, kubelet, kube-proxy; waits until the node is Ready
#   node_teardown       on exit (also after a failure): every process, mount, cgroup, link, route,
#                       iptables chain, sysctl and file the node made, put back as it was
#   node_verify         the machine is as node_preflight found it (machine-state.sh), or the run fails
#
# Run alone, `bash test/cluster/node.sh cleanup` removes what a run killed
# outright (SIGKILL, no trap) left behind.
#
# The network: the bridge kruise-tier0 holds 198.18.0.1/24 (TEST-NET-2,
# 198.18.0.0/15), the node address that kube-apiserver, kubelet and the
# hostNetwork pods use. Pods get 198.18.0.16-254 from CNI's bridge and
# host-local plugins, with one route, to the Service range 198.19.0.0/16,
# which kube-proxy turns into pod or apiserver addresses. No default route,
# no NAT, no forwarding: the guard chains drop whatever would enter or leave
# the bridge through another interface, and net.ipv4.ip_forward is left as
# found.
# shellcheck disable=SC2154  # $dir, $bin, $here, pids and start() come from cluster.sh

NODE_BRIDGE=kruise-tier0
NODE_IP=198.18.0.1
NODE_POD_SUBNET=198.18.0.0/24
NODE_SERVICE_RANGE=198.19.0.0/16
NODE_GUARD_NET=198.18.0.0/15
NODE_CGROUP=cdk8s-kruise-tier
NODE_CHAIN=CDK8S-KRUISE-TIER
NODE_NAME="${CLUSTER_NODE_NAME:-real-node-1}"
# Kernel settings kubelet and kube-proxy may write: saved before, put back after.
NODE_SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys
  kernel.keys.root_maxbytes net.ipv4.ip_forward net.ipv4.conf.all.route_localnet net.bridge.bridge-nf-call-iptables
  net.bridge.bridge-nf-call-ip6tables net.netfilter.nf_conntrack_max net.netfilter.nf_conntrack_tcp_timeout_established
  net.netfilter.nf_conntrack_tcp_timeout_close_wait net.netfilter.nf_conntrack_tcp_be_liberal)
# Host paths containerd 1.6 and kubelet write to whatever they are told: removed after when they were absent before.
NODE_HOST_PATHS=(/run/containerd /var/log/containers /var/lib/cni /var/lib/kubelet /var/log/pods /etc/cni /opt/cni /opt/containerd /run/netns /var/run/netns)
NODE_PACKAGES=(containerd runc iptables conntrack containernetworking-plugins nftables)

node_fail() { echo "cluster tier: real node: $*" >&2; exit 1; }

# Waits (at most 10 s) until test $1 holds for path $2 (-s: a file with content, -S: a socket) of the daemon
# with PID $3, whose log is $4; stops the tier if the daemon exits first or the time runs out ($5 names it).
node_wait_started() {
  local test="$1" path="$2" pid="$3" log="$4" what="$5"
  for _ in $(seq 1 100); do
    [ "$test" "$path" ] && return 0
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$log" >&2; node_fail "$what exited at start"; }
    sleep 0.1
  done
  node_fail "$what did not start within 10 s ($path)"
}

# --- requirements ------------------------------------------------------------

node_requirements() {
  [ "$(id -u)" = 0 ] || node_fail "needs root (it runs containerd, kubelet and kube-proxy)"
  [ -d /sys/fs/cgroup/pids ] && [ -d /sys/fs/cgroup/memory ] && [ -d /sys/fs/cgroup/cpu ] \
    || node_fail "needs the cgroup v1 hierarchies at /sys/fs/cgroup/{cpu,memory,pids,...} (kubelet runs with cgroupfs on cgroup v1 here)"
  command -v ip >/dev/null 2>&1 || node_fail "ip (iproute2) is missing"
  local missing=()
  command -v containerd >/dev/null 2>&1 || missing+=(containerd)
  command -v runc >/dev/null 2>&1 || missing+=(runc)
  command -v iptables >/dev/null 2>&1 || missing+=(iptables)
  command -v conntrack >/dev/null 2>&1 || missing+=(conntrack)
  [ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/host-local ] && [ -x /usr/lib/cni/loopback ] || missing+=(containernetworking-plugins)
  command -v nft >/dev/null 2>&1 || missing+=(nftables)
  if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || node_fail "needs ${missing[*]} (no apt-get here to install them)"
    echo "cluster tier: real node: installing ${missing[*]} (apt-get)" >&2
    # The packages' services never start here: containerd runs from the tier's own config.
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >"$dir/apt-get.log" 2>&1; then
      DEBIAN_FRONTEND=noninteractive apt-get update >>"$dir/apt-get.log" 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >>"$dir/apt-get.log" 2>&1 \
        || { tail -n 5 "$dir/apt-get.log" >&2; node_fail "apt-get could not install ${missing[*]}"; }
    fi
  fi
  local v
  v="$(containerd --version | awk '{print $3}')"
  case "$v" in 1.6.*|1.7.*) ;; *) node_fail "needs containerd 1.6 or 1.7 (its config here is version 2; found $v)";; esac
}

# --- what another run left ---------------------------------------------------

node_preflight() {
  if ip link show "$NODE_BRIDGE" >/dev/null 2>&1 || [ -d "/sys/fs/cgroup/pids/$NODE_CGROUP" ]; then
    local owner live=""
    for owner in "${TMPDIR:-/tmp}"/cdk8s-kruise-cluster.*/node/owner.pid; do
      [ -f "$owner" ] && kill -0 "$(cat "$owner")" 2>/dev/null && live="$(cat "$owner")"
    done
    [ -z "$live" ] || node_fail "another real-node run (cluster.sh pid $live) is active on this machine; one node at a time"
    echo "cluster tier: real node: removing what a killed run left behind" >&2
    node_cleanup_stale
  fi
  iptables-save 2>/dev/null | grep -q '^:KUBE-' \
    && node_fail "iptables already has KUBE-* chains: another kubelet or kube-proxy manages this machine"
  [ -e /run/containerd/containerd.sock ] \
    && node_fail "/run/containerd/containerd.sock exists: a containerd already runs on this machine"
  mkdir -p "$dir/node"
  # the machine as it is now: compared with the machine after the teardown (machine-state.sh)
  bash "$here/machine-state.sh" > "$dir/node/machine-state.before"
  echo $$ > "$dir/node/owner.pid"
  # What the machine looks like before: put back at teardown.
  local s
  : > "$dir/node/sysctl.before"
  for s in "${NODE_SYSCTLS[@]}"; do
    [ -e "/proc/sys/${s//.//}" ] && echo "$s=$(cat "/proc/sys/${s//.//}")" >> "$dir/node/sysctl.before"
  done
  : > "$dir/node/paths.before"
  for s in "${NODE_HOST_PATHS[@]}"; do [ -e "$s" ] && echo "$s" >> "$dir/node/paths.before"; done
  nft list tables 2>/dev/null | sort > "$dir/node/nft-tables.before" || true
  awk '{ print $5 }' /proc/self/mountinfo | sort -u > "$dir/node/mounts.before"
  ls /var/log/containers 2>/dev/null | sort > "$dir/node/log-links.before" || true
  return 0
}

# --- network -----------------------------------------------------------------

node_network_up() {
  ip link add "$NODE_BRIDGE" type bridge || node_fail "cannot create the bridge $NODE_BRIDGE"
  ip addr add "$NODE_IP/24" dev "$NODE_BRIDGE"
  ip link set "$NODE_BRIDGE" up
  # Service addresses stay on the bridge: kube-proxy's DNAT rewrites them; without a rule they reach no one.
  ip route add "$NODE_SERVICE_RANGE" dev "$NODE_BRIDGE"
  # Nothing enters the node network but from the machine itself or the bridge, and nothing is
  # forwarded between the bridge and another interface.
  iptables -N "$NODE_CHAIN"
  iptables -A "$NODE_CHAIN" -i lo -j RETURN
  iptables -A "$NODE_CHAIN" -i "$NODE_BRIDGE" -j RETURN
  iptables -A "$NODE_CHAIN" -d "$NODE_GUARD_NET" -j DROP
  iptables -I INPUT 1 -j "$NODE_CHAIN"
  iptables -N "$NODE_CHAIN-FWD"
  iptables -A "$NODE_CHAIN-FWD" -i "$NODE_BRIDGE" -o "$NODE_BRIDGE" -j RETURN
  iptables -A "$NODE_CHAIN-FWD" -i "$NODE_BRIDGE" -j DROP
  iptables -A "$NODE_CHAIN-FWD" -o "$NODE_BRIDGE" -j DROP
  iptables -I FORWARD 1 -j "$NODE_CHAIN-FWD"
}

# --- registry ------------------------------------------------------------------

node_registry_up() {
  local images="$1"
  # cluster-tier/pull-slow answers every request after 5 s: a pull of it lasts long enough for a test to act meanwhile
  start registry "$images/bin/imagetool" serve -layout "$images/layout" -addr 127.0.0.1:0 -ready "$dir/node/registry.addr" \
    -slow cluster-tier/pull-slow=5s
  node_wait_started -s "$dir/node/registry.addr" "${pids[-1]}" "$dir/registry.log" "the image registry"
  NODE_REGISTRY="$(cat "$dir/node/registry.addr")"
}

# --- containerd, kubelet, kube-proxy --------------------------------------------

# Write a registry mirror: pulls of <upstream>/<repo> are answered by the local registry under
# <upstream>/<repo>; nothing is asked of the upstream itself (the server line is the local registry too).
node_mirror() { # upstream
  mkdir -p "$dir/node/certs.d/$1"
  cat > "$dir/node/certs.d/$1/hosts.toml" <<TOML
server = "http://$NODE_REGISTRY"
[host."http://$NODE_REGISTRY/v2/$1"]
  capabilities = ["pull", "resolve"]
  override_path = true
TOML
}

node_start() {
  local n="$dir/node"
  mkdir -p "$n/run" "$n/containerd/root" "$n/containerd/state" "$n/containerd/opt" "$n/runc" "$n/kubelet" \
    "$n/pki" "$n/pod-logs" "$n/cni/net.d" "$n/cni/ipam" "$n/cni/cache" "$n/certs.d" "$n/volumes"

  # cgroups: one tree for the node (kubelet's cgroupRoot), containerd and its shims in runtime/.
  local h
  for h in /sys/fs/cgroup/*/; do
    h="${h%/}"
    [ "$(basename "$h")" = unified ] && continue
    mkdir -p "$h/$NODE_CGROUP/runtime"
    if [ "$(basename "$h")" = cpuset ]; then
      cat "$h/cpuset.cpus" > "$h/$NODE_CGROUP/cpuset.cpus"; cat "$h/cpuset.mems" > "$h/$NODE_CGROUP/cpuset.mems"
      cat "$h/cpuset.cpus" > "$h/$NODE_CGROUP/runtime/cpuset.cpus"; cat "$h/cpuset.mems" > "$h/$NODE_CGROUP/runtime/cpuset.mems"
    fi
  done

  # Our registry over plain http, and mirrors of the public registries the manifests under test name.
  mkdir -p "$n/certs.d/$NODE_REGISTRY"
  printf 'server = "http://%s"\n[host."http://%s"]\n  capabilities = ["pull", "resolve"]\n' "$NODE_REGISTRY" "$NODE_REGISTRY" \
    > "$n/certs.d/$NODE_REGISTRY/hosts.toml"
  node_mirror docker.io
  node_mirror registry.k8s.io
  # Every other registry: asked of the local registry too, which has nothing there (404), so no pull
  # ever leaves the machine (containerd reads _default for a host without a folder of its own).
  node_mirror _default

  cat > "$n/cni/net.d/10-cluster-tier.conflist" <<CNI
{
  "cniVersion": "1.0.0",
  "name": "cluster-tier",
  "plugins": [{
    "type": "bridge", "bridge": "$NODE_BRIDGE", "isGateway": false, "isDefaultGateway": false, "ipMasq": false,
    "ipam": {
      "type": "host-local", "dataDir": "$n/cni/ipam",
      "ranges": [[{ "subnet": "$NODE_POD_SUBNET", "rangeStart": "198.18.0.16", "rangeEnd": "198.18.0.254", "gateway": "$NODE_IP" }]],
      "routes": [{ "dst": "$NODE_SERVICE_RANGE", "gw": "$NODE_IP" }]
    }
  }]
}
CNI

  # restrict_oom_score_adj: CAP_SYS_RESOURCE may be missing from the bounding set (it is on the CI
  # machines), and runc then cannot lower a container's oom_score_adj below containerd's own.
  cat > "$n/containerd.toml" <<TOML
version = 2
root = "$n/containerd/root"
state = "$n/containerd/state"
[grpc]
  address = "$n/run/containerd.sock"
[ttrpc]
  address = "$n/run/containerd.sock.ttrpc"
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$n/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$NODE_REGISTRY/cluster-tier/pause:1"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  disable_apparmor = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$n/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$n/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$n/certs.d"
TOML
  # containerd (and so every shim it starts) in the node's runtime cgroup; exec keeps the pid.
  start containerd bash -c 'for h in /sys/fs/cgroup/*/; do [ -e "${h}$1/runtime/cgroup.procs" ] && echo $$ > "${h}$1/runtime/cgroup.procs"; done; exec containerd --config "$2"' \
    containerd "$NODE_CGROUP" "$n/containerd.toml"
  NODE_CONTAINERD_PID=${pids[-1]}
  node_wait_started -S "$n/run/containerd.sock" "$NODE_CONTAINERD_PID" "$dir/containerd.log" "containerd"
  # Also where a default install looks for it (KruiseControlPlane's daemon.socketLocation defaults to
  # /var/run): a bind mount, visible inside the daemon's /hostvarrun, undone at teardown.
  mkdir -p /run/containerd
  touch /run/containerd/containerd.sock
  mount --bind "$n/run/containerd.sock" /run/containerd/containerd.sock || node_fail "cannot bind containerd's socket to /run/containerd/containerd.sock"

  # kubelet: its serving certificate for the node address, and its configuration.
  ssl req -newkey rsa:2048 -nodes -subj "/CN=$NODE_NAME" -keyout "$n/pki/kubelet.key" -out "$n/pki/kubelet.csr"
  printf 'subjectAltName=IP:%s,DNS:%s\nextendedKeyUsage=serverAuth\n' "$NODE_IP" "$NODE_NAME" > "$n/pki/kubelet.ext"
  ssl x509 -req -in "$n/pki/kubelet.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$n/pki/kubelet.ext" -out "$n/pki/kubelet.crt"
  cat > "$n/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: $kubelet_port
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $kubelet_healthz_port
tlsCertFile: $n/pki/kubelet.crt
tlsPrivateKeyFile: $n/pki/kubelet.key
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: false }
  x509: { clientCAFile: $dir/ca.crt }
authorization: { mode: AlwaysAllow }
containerRuntimeEndpoint: unix://$n/run/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /$NODE_CGROUP
failCgroupV1: false
failSwapOn: false
podLogsDir: $n/pod-logs
maxPods: 200
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%" }
evictionPressureTransitionPeriod: 5s
syncFrequency: 10s
fileCheckFrequency: 60s
nodeStatusUpdateFrequency: 5s
runtimeRequestTimeout: 2m
shutdownGracePeriod: 0s
YAML
  node_kubelet_command > "$n/kubelet.cmd"
  # shellcheck disable=SC2046
  start kubelet $(cat "$n/kubelet.cmd")
  NODE_KUBELET_PID=${pids[-1]}
  echo "$NODE_KUBELET_PID" > "$n/kubelet.pid"

  cat > "$n/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $dir/kubeconfig }
hostnameOverride: $NODE_NAME
bindAddress: $NODE_IP
healthzBindAddress: 127.0.0.1:$proxy_healthz_port
metricsBindAddress: 127.0.0.1:$proxy_metrics_port
mode: iptables
clusterCIDR: $NODE_POD_SUBNET
nodePortAddresses: ["$NODE_IP/32"]
iptables: { localhostNodePorts: false, masqueradeAll: false, syncPeriod: 30s, minSyncPeriod: 1s }
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
YAML
  start kube-proxy "$bin/kube-proxy" --config "$n/kube-proxy.yaml" --v 1
  NODE_PROXY_PID=${pids[-1]}

  # Ready, and without the not-ready taint the API server gives every new node (the node lifecycle
  # controller's job, off in the tier: kwok's nodes send no heartbeats).
  local ready=""
  for _ in $(seq 1 120); do
    kill -0 "$NODE_KUBELET_PID" 2>/dev/null || { tail -n 30 "$dir/kubelet.log" >&2; node_fail "kubelet exited at start (log above)"; }
    kill -0 "$NODE_PROXY_PID" 2>/dev/null || { tail -n 30 "$dir/kube-proxy.log" >&2; node_fail "kube-proxy exited at start (log above)"; }
    ready="$("$kubectl" --kubeconfig "$dir/kubeconfig" get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null || true)"
    [ "$ready" = True ] && break
    sleep 0.5
  done
  [ "$ready" = True ] || { tail -n 30 "$dir/kubelet.log" >&2; node_fail "node $NODE_NAME was not Ready within 60 s (kubelet log above)"; }
  "$kubectl" --kubeconfig "$dir/kubeconfig" taint node "$NODE_NAME" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  echo "cluster tier: real node $NODE_NAME Ready at $NODE_IP (containerd $(containerd --version | awk '{print $3}'), registry $NODE_REGISTRY)" >&2
}

# kubelet's command line, one argument a line-free word (the tests restart kubelet with it).
node_kubelet_command() {
  echo "$bin/kubelet --config $dir/node/kubelet.yaml --kubeconfig $dir/kubeconfig --hostname-override $NODE_NAME" \
    "--node-ip $NODE_IP --root-dir $dir/node/kubelet --cert-dir $dir/node/pki" \
    "--node-labels cdk8s-kruise.test/node=real,topology.kubernetes.io/zone=zone-real --v 1"
}

# --- teardown ------------------------------------------------------------------

# Every process in the node's cgroup tree (containers, shims, containerd): KILL, until none is left (at most 10 s).
node_kill_tree() {
  local root="/sys/fs/cgroup/pids/$NODE_CGROUP"
  [ -d "$root" ] || return 0
  local pid left
  for _ in $(seq 1 100); do
    left=0
    while read -r pid; do
      [ -n "$pid" ] || continue
      left=1
      kill -KILL "$pid" 2>/dev/null || true
    done < <(find "$root" -name cgroup.procs -exec cat {} + 2>/dev/null)
    [ "$left" = 0 ] && return 0
    sleep 0.1
  done
  echo "cluster tier: real node: processes still in $root after 10 s: $(find "$root" -name cgroup.procs -exec cat {} + | tr '\n' ' ')" >&2
}

# Unmount everything under a folder, deepest first (a few passes: shared mounts come back once).
node_unmount_under() { # folder
  local base="$1" m
  for _ in 1 2 3 4 5; do
    mapfile -t mounts < <(awk -v b="$base/" 'index($5, b) == 1 { print $5 }' /proc/self/mountinfo | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-)
    [ ${#mounts[@]} -eq 0 ] && return 0
    for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  done
  awk -v b="$base/" 'index($5, b) == 1 { print $5 }' /proc/self/mountinfo | grep -q . && return 1
  return 0
}

# The bind mount of containerd's socket at its default path.
node_unmount_socket() {
  if awk '$5 == "/run/containerd/containerd.sock" { found = 1 } END { exit !found }' /proc/self/mountinfo; then
    umount /run/containerd/containerd.sock 2>/dev/null || umount -l /run/containerd/containerd.sock 2>/dev/null || true
  fi
}

# Remove the KUBE-* chains (kubelet's, kube-proxy's) and ours from every table, and tables that were not there before.
node_iptables_clean() {
  local ipt t rule c chains
  for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null 2>&1 || continue
    for t in filter nat mangle raw; do
      "$ipt-save" -t "$t" >/dev/null 2>&1 || continue
      while read -r rule; do
        [ -n "$rule" ] || continue
        eval "$ipt -w -t $t ${rule/#-A/-D}" 2>/dev/null || true
      done < <("$ipt-save" -t "$t" 2>/dev/null | grep -E '^-A (INPUT|OUTPUT|FORWARD|PREROUTING|POSTROUTING) .*-j (KUBE-|'"$NODE_CHAIN"')')
      chains="$("$ipt-save" -t "$t" 2>/dev/null | awk '/^:(KUBE-|'"$NODE_CHAIN"')/ { print substr($1, 2) }')"
      for c in $chains; do "$ipt" -w -t "$t" -F "$c" 2>/dev/null || true; done
      for c in $chains; do "$ipt" -w -t "$t" -X "$c" 2>/dev/null || true; done
    done
  done
  if command -v nft >/dev/null 2>&1 && [ -f "$1" ]; then
    local table
    while read -r table; do
      # shellcheck disable=SC2086  # "table <family> <name>" is three words for nft
      grep -qxF "$table" "$1" || nft delete $table 2>/dev/null || true
    done < <(nft list tables 2>/dev/null)
  fi
}

node_links_clean() {
  local l
  for l in $(ip -o link show master "$NODE_BRIDGE" 2>/dev/null | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
    ip link delete "$l" 2>/dev/null || true
  done
  ip route del "$NODE_SERVICE_RANGE" dev "$NODE_BRIDGE" 2>/dev/null || true
  ip link delete "$NODE_BRIDGE" 2>/dev/null || true
}

node_cgroups_clean() {
  local h
  for h in /sys/fs/cgroup/*/"$NODE_CGROUP"; do
    [ -d "$h" ] || continue
    find "$h" -depth -type d -exec rmdir {} + 2>/dev/null || true
    [ -d "$h" ] && echo "cluster tier: real node: cgroup $h could not be removed" >&2
  done
  return 0
}

# After a run: put the machine back as it was. Runs as part of cluster.sh's stop (its processes
# are stopped first); never fails the trap, but says what it could not undo.
node_teardown() {
  local n="$dir/node"
  [ -f "$n/owner.pid" ] || return 0
  node_kill_tree
  node_unmount_socket
  node_unmount_under "$dir" || echo "cluster tier: real node: mounts left under $dir: $(awk -v b="$dir/" 'index($5, b) == 1 { print $5 }' /proc/self/mountinfo | tr '\n' ' ')" >&2
  node_links_clean
  node_iptables_clean "$n/nft-tables.before"
  # the kernel mounts tracefs when a runtime first looks for it; it was not there before
  local m
  for m in /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug; do
    if [ -f "$n/mounts.before" ] && ! grep -qxF "$m" "$n/mounts.before" && awk -v m="$m" '$5 == m { f = 1 } END { exit !f }' /proc/self/mountinfo; then
      umount "$m" 2>/dev/null || true
    fi
  done
  node_cgroups_clean
  local kv
  if [ -f "$n/sysctl.before" ]; then
    while read -r kv; do [ -n "$kv" ] && sysctl -q -w "$kv" >/dev/null 2>&1 || true; done < "$n/sysctl.before"
  fi
  # kubelet links every container log into /var/log/containers (a fixed path)
  if [ -d /var/log/containers ]; then
    local f
    for f in /var/log/containers/*; do
      [ -L "$f" ] && case "$(readlink "$f")" in "$n"/*) rm -f "$f";; esac
    done
  fi
  local p
  for p in "${NODE_HOST_PATHS[@]}"; do
    [ -e "$p" ] || continue
    grep -qxF "$p" "$n/paths.before" 2>/dev/null && continue
    case "$p" in
      /run/containerd) rm -rf "$p";;            # the shim sockets of containerd 1.6 (/run/containerd/s)
      *) rmdir "$p" 2>/dev/null || rm -rf "$p";;
    esac
  done
  rm -f "$n/owner.pid"
}

# The machine after the teardown against the machine before the run: the difference, and false, when they differ.
node_verify() {
  [ -f "$dir/node/machine-state.before" ] || return 0
  bash "$here/machine-state.sh" --diff "$dir/node/machine-state.before" >&2
}

# A run killed outright left its folder behind: tear down from it, then remove it.
node_cleanup_stale() {
  local old
  node_kill_tree
  node_unmount_socket
  for old in "${TMPDIR:-/tmp}"/cdk8s-kruise-cluster.*; do
    [ -f "$old/owner.pid" ] && kill -0 "$(cat "$old/owner.pid")" 2>/dev/null && continue
    [ -d "$old/node" ] || continue
    dir="$old" node_teardown
    node_unmount_under "$old" && rm -rf "$old"
  done
  node_links_clean
  node_iptables_clean /dev/null
  node_cgroups_clean
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    cleanup) [ "$(id -u)" = 0 ] || node_fail "cleanup needs root"; node_cleanup_stale; echo "cluster tier: real node: cleaned up";;
    *) echo "usage: $0 cleanup   (what a real-node run killed outright left behind)" >&2; exit 2;;
  esac
fi
