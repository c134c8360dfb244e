// The cluster tier's tests on a full control plane (test/cluster/full/): an
// API server of their own, started empty, with kube-controller-manager
// (CLUSTER_CONTROLLER_MANAGER=1), by `npx projen test:cluster` before the
// shared-cluster tests. Files run in name order: 1-deploy needs the empty
// cluster, the later ones only the controllers.
const shared = require('./jest.config.js');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/test/cluster/full/**/*.cluster.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
