// The cluster tier's fresh-cluster tests (test/cluster/fresh/): each run of
// this config gets an API server of its own, empty, with
// kube-controller-manager (CLUSTER_CONTROLLER_MANAGER=1), started by
// `npx projen test:cluster` before the shared-cluster tests.
const shared = require('./jest.config.js');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/test/cluster/fresh/**/*.cluster.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
