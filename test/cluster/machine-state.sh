#!/usr/bin/env bash
# The parts of this machine a real-node run touches, as text: links,
# addresses, routes, network namespaces, mounts, iptables and nftables rules,
# kernel settings, cgroups, the node's processes and the host paths kubelet
# and containerd write to. Run it before and after a run and compare:
#
#   test/cluster/machine-state.sh > before
#   CLUSTER_NODES=1 test/cluster/cluster.sh run -- ...
#   test/cluster/machine-state.sh --diff before    # exit 1 and the difference when the machine changed
#
# Counters, ages and other values that move on their own are left out.
set -euo pipefail

snapshot() {
  # a missing tool or folder is part of the state, never an error
  set +e +o pipefail
  echo "## links"; ip -o link show | awk -F': ' '{ print $2 }' | cut -d@ -f1 | sort
  echo "## addresses"; ip -o addr show | awk '{ print $2, $3, $4 }' | sort
  echo "## routes"; ip route show table all 2>/dev/null | grep -v '^local\|^broadcast\|^multicast\|fe80::\|^ff00::' | sort
  echo "## network namespaces"; { ip netns list 2>/dev/null; ls /run/netns /var/run/netns 2>/dev/null; } | sort -u
  echo "## mounts"; awk '{ print $5 }' /proc/self/mountinfo | sort
  echo "## iptables"
  local ipt
  for ipt in iptables-save ip6tables-save; do
    command -v "$ipt" >/dev/null 2>&1 && "$ipt" 2>/dev/null | grep -v '^#' | sed -E 's/\[[0-9]+:[0-9]+\]//' || true
  done
  echo "## nftables"; command -v nft >/dev/null 2>&1 && nft list ruleset 2>/dev/null | sed -E 's/counter packets [0-9]+ bytes [0-9]+/counter/' || true
  echo "## sysctls"
  sysctl -a 2>/dev/null | grep -E '^(vm\.overcommit_memory|vm\.panic_on_oom|kernel\.panic|kernel\.keys\.root_max|net\.ipv4\.ip_forward|net\.ipv4\.conf\.(all|default)\.|net\.ipv6\.conf\.(all|default)\.forwarding|net\.bridge\.|net\.netfilter\.nf_conntrack_(max|tcp_timeout_established|tcp_timeout_close_wait|tcp_be_liberal) )' | sort
  echo "## cgroups"; for h in /sys/fs/cgroup/*/; do find "$h" -mindepth 1 -maxdepth 1 -type d 2>/dev/null; done | sort
  echo "## processes"; ps -eo comm= | grep -xE 'containerd|containerd-shim.*|kubelet|kube-proxy|imagetool|runc|pause|server|manager|kruise-daemon' | sort | uniq -c || true
  echo "## host paths"
  local p
  for p in /run/containerd /var/lib/containerd /var/lib/kubelet /var/log/pods /var/log/containers /var/lib/cni /etc/cni /opt/cni /opt/containerd /run/netns /var/run/netns /var/lib/cluster-tier; do
    [ -e "$p" ] && echo "$p $(find "$p" 2>/dev/null | wc -l)"
  done
  set -e -o pipefail
  return 0
}

case "${1:-}" in
  --diff)
    [ -f "${2:-}" ] || { echo "usage: $0 --diff BEFORE-FILE" >&2; exit 2; }
    if ! out="$(diff "$2" <(snapshot))"; then
      echo "machine state: changed by the run (< before, > after):" >&2
      echo "$out" >&2
      exit 1
    fi
    echo "machine state: as before the run"
    ;;
  "") snapshot ;;
  *) echo "usage: $0 [--diff BEFORE-FILE]" >&2; exit 2 ;;
esac
