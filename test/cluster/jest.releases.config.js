// The releases tier (test/cluster/releases/): every release's real manager
// (kruise-manager v1.9.1, v1.9.0, v1.8.4 and v1.7.4, kruise-rollout-manager
// v0.6.2 and v0.5.5) judging our admission targeting it, each file on a
// cluster of its own that it starts and stops itself (releases/cluster.ts,
// which runs cluster.sh), so the files run side by side: one jest worker per
// file, at most CLUSTER_RELEASES_SIDE_BY_SIDE at once (all of them unless set).
// `npx projen test:cluster:releases`.
const shared = require('./jest.config.js');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/test/cluster/releases/**/*.cluster.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: Number(process.env.CLUSTER_RELEASES_SIDE_BY_SIDE ?? 7),
};
