// The cluster tier's tests on a real node (test/cluster/nodes/): one cluster
// with kubelet, containerd and kube-proxy (CLUSTER_NODES=1, node.sh) and
// kube-controller-manager, started once for all of them by
// `npx projen test:cluster`. Files run in name order and share the control
// plane the first one installs as pods.
const shared = require('./jest.config.js');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/test/cluster/nodes/**/*.cluster.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
