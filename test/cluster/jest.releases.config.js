// The releases tier (test/cluster/releases/): the older releases' real managers
// (kruise-manager v1.8.4 and v1.7.4, kruise-rollout-manager v0.5.5) beside the
// default ones, each judging the admission corpus through its own webhooks, on
// a cluster of their own (`npx projen test:cluster:releases`: cluster.sh with
// CLUSTER_RELEASES=1, which provides the older managers). Files run in name order.
const shared = require('./jest.config.js');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/test/cluster/releases/**/*.cluster.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
