// The cluster tier's jest configuration: only test/cluster/*.cluster.test.ts,
// one file at a time in a fixed order (they share one API server), and long
// timeouts (a test applies hundreds of objects). Run through
// `npx projen test:cluster`, which starts the cluster first.
module.exports = {
  rootDir: '../..',
  testMatch: ['<rootDir>/test/cluster/**/*.cluster.test.ts'],
  // test/cluster/full/ needs an empty cluster of its own (jest.full.config.js), nodes/ a real node (jest.nodes.config.js),
  // releases/ the older releases' managers (jest.releases.config.js)
  testPathIgnorePatterns: ['/node_modules/', '/test/cluster/full/', '/test/cluster/nodes/', '/test/cluster/releases/'],
  transform: { '^.+\\.[t]sx?$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
  // the example apps import the library by its package name (examples/README.md)
  moduleNameMapper: { '^cdk8s-kruise$': '<rootDir>/src/index.ts' },
  testSequencer: '<rootDir>/test/cluster/sequencer.js',
  testTimeout: 300000,
  collectCoverage: false,
  maxWorkers: 1,
  verbose: true,
};
