// The command a release's own cluster runs (cluster.sh run -- node hold.js FILE):
// it writes the cluster's environment (KUBECONFIG, CLUSTER_*) and its own pid
// to FILE, then holds the cluster up until it gets SIGTERM, when it exits 0 and
// cluster.sh stops every process of the cluster.
const fs = require('fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node hold.js FILE');
  process.exit(2);
}
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'KUBECONFIG' || k.startsWith('CLUSTER_')));
fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, env }));
fs.renameSync(`${file}.tmp`, file);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
// bounded: a cluster nobody stops ends after 6 hours
setTimeout(() => process.exit(0), 6 * 3600 * 1000);
