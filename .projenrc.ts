import { cdk8s, javascript, JsonFile, release } from 'projen';
import { UpdateSnapshot } from 'projen/lib/javascript';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-kruise',
  packageName: 'cdk8s-kruise',
  description: 'cdk8s constructs for OpenKruise v1.9.0: typed workloads, fleet policies and the control plane, validated at synth',
  author: 'cdk8s-kruise maintainers',
  authorAddress: 'maintainers@cdk8s-kruise.invalid',
  repositoryUrl: 'https://github.com/cdk8s-kruise/cdk8s-kruise.git',
  defaultReleaseBranch: 'main',
  keywords: ['cdk8s', 'kubernetes', 'openkruise', 'kruise', 'cloneset', 'sidecarset'],
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,

  cdk8sVersion: '2.70.106',
  constructsVersion: '10.3.0',
  jsiiVersion: '~6.0.0',
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  // croner parses AdvancedCronJob schedules (the admission layer normalises them to what upstream accepts first)
  // yaml reads manifests in the update-plan CLI (src/plan)
  // semver compares release tags (a Helm takeover refuses a downgrade; test/package-lock.test.ts reads engines with it)
  // js-yaml reads manifests in `cdk8s-kruise check` and the fleet check as kubectl does (its YAML 1.1 tags), and fast
  bundledDeps: ['ajv@^8.17.1', 'croner@^11.0.1', 'yaml@^2.8.1', 'js-yaml@^5.5.0', 'semver@^7.7.0'],
  // cdk8s-cli: `cdk8s synth` inside each example app (examples/README.md)
  // tsconfig-paths: resolves `cdk8s-kruise` to src/ in the examples and the README snippets
  // cdk8s-plus-33: what `cdk8s init` installs today; the foreign-kplus tests pass its objects to ours
  // @swc/core: ts-node transpiles the library's source for each example app in a fraction of a second
  devDeps: ['json2jsii@^0.5.19', 'fast-check@^4.11.0', 'cdk8s-cli@^2.207.60', 'tsconfig-paths@^4.2.0', 'cdk8s-plus-33@^2.5.57', '@swc/core@^1.16.22', '@types/semver@^7.7.0'],

  // jsii targets: every package is built by `npx projen package-all` into
  // dist/<language>/ and proven by the smoke tests under test/<language>/.
  // .NET is not configured: this machine has no dotnet toolchain to build it.
  publishToPypi: {
    distName: 'cdk8s-kruise',
    module: 'cdk8s_kruise',
  },
  publishToMaven: {
    mavenGroupId: 'io.github.cdk8skruise',
    mavenArtifactId: 'cdk8s-kruise',
    javaPackage: 'io.github.cdk8skruise',
  },
  publishToGo: {
    moduleName: 'github.com/cdk8s-kruise/cdk8s-kruise-go',
    packageName: 'cdk8skruise',
  },

  // Releases: projen's standard release workflow for a jsii library, started
  // by hand (GitHub Actions, "release", Run workflow): it bumps the version
  // from the commits since the last tag, builds every jsii package, tags the
  // release and publishes to npm, PyPI, Maven Central and the Go module
  // repository (README "Releasing"). No release on every push: main is
  // merged often. No hosted build CI: `.ci/run` tests every change.
  release: true,
  releaseTrigger: release.ReleaseTrigger.workflowDispatch(),
  // The version bump of a release. projen's default, commit-and-tag-version 13, and its conventional-changelog
  // packages need Node 22, so `npm ci` on the Node 20 the README documents printed 17 EBADENGINE warnings;
  // 12.x does the same bump on Node 18 and later (test/package-lock.test.ts holds every locked package to Node 20).
  bumpPackage: 'commit-and-tag-version@^12',
  releaseToNpm: true,
  buildWorkflow: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  githubOptions: { mergify: false, pullRequestLint: false },

  // The generated L1 bindings live in a top-level imports/ folder, so jsii
  // compiles from the repository root: src/ and imports/ are both inputs and
  // the entry point becomes lib/src/index.js.
  srcdir: 'src',
  libdir: 'lib',
  entrypoint: 'lib/src/index.js',
  entrypointTypes: 'lib/src/index.d.ts',
  tsconfig: {
    // Source maps next to the compiled modules (lib/**/*.js.map, sources embedded) instead of
    // inline: node reads them only with --enable-source-maps, and an app no longer reads and scans
    // a base64 copy of each module's source as it loads it (a few milliseconds of every synth).
    compilerOptions: { rootDir: '.', inlineSourceMap: false, sourceMap: true, inlineSources: true },
    include: ['src/**/*.ts', 'imports/**/*.ts'],
  },
  tsconfigDev: {
    // Examples and README snippets import the library by its package name, as
    // a user's app does; in this repository that name is the source in src/.
    compilerOptions: { paths: { 'cdk8s-kruise': ['../src/index.ts'] } },
    include: ['../build-tools/**/*.ts', '../examples/**/*.ts', '../imports/**/*.ts', '../src/**/*.ts', '../.projenrc.ts', '../projenrc/**/*.ts'],
  },

  jestOptions: {
    // Snapshots are never rewritten by a test run; use `npx projen test:update`.
    updateSnapshot: UpdateSnapshot.NEVER,
    jestConfig: {
      // Coverage instruments every module a test loads (about 1.5x the CPU of a plain run);
      // `npx projen test --coverage` collects it when wanted.
      collectCoverage: false,
      // test/cluster/ is the cluster tier: its own jest config, run by `test:cluster`.
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '/lib/', '/test/cluster/'],
      coveragePathIgnorePatterns: ['/node_modules/', '/imports/'],
      moduleNameMapper: { '^cdk8s-kruise$': '<rootDir>/src/index.ts' },
      // Every message a test makes the library print is held to the one message shape.
      setupFilesAfterEnv: ['<rootDir>/test/util/every-message-shaped.ts'],
      // Every temporary file of a run goes in one folder that the run removes at its end (test/util/tmp-dir.js).
      globalSetup: '<rootDir>/test/util/tmp-setup.js',
      globalTeardown: '<rootDir>/test/util/tmp-teardown.js',
    },
  },
  eslintOptions: {
    dirs: ['src'],
    devdirs: ['test', 'build-tools', 'examples', 'projenrc', '.projenrc.ts'],
    tsconfigPath: './test/tsconfig.json',
    projectService: false,
  },
  gitignore: ['/dist/', '/examples/*/dist/', '.cache/'],
  npmignoreEnabled: true,
  // `cdk8s-kruise`: plan, fleet and the other commands (src/cli.ts)
  bin: { 'cdk8s-kruise': 'bin/cdk8s-kruise' },
});

// --- generation: one schema source -> CRDs, L1 bindings, validation schemas
project.addTask('gen', {
  description: 'Regenerate crds/, imports/ and schemas/ from the API model in src/api',
  exec: 'ts-node --project test/tsconfig.json build-tools/generate.ts',
});

// Each export of the package loads its module on first access, not at require: jsii needs
// `export *` and `export * as kruise` in src/index.ts, which compile to eager requires.
project.compileTask.exec('ts-node --transpile-only --project test/tsconfig.json build-tools/lazy-exports.ts');

// --- benchmarks: synth cost as ratios to cdk8s-plus-28 and to `helm template`,
// measured in one run on the compiled package (README, "Synth cost")
project.addTask('bench', {
  description: 'Benchmark synth against cdk8s-plus-28 and helm template (ratios, interleaved rounds); `-- --smoke` runs every row tiny, once',
  steps: [
    { spawn: 'compile' },
    { exec: 'ts-node --project test/tsconfig.json build-tools/bench.ts', receiveArgs: true },
  ],
});
// CI runs the benchmark only as a smoke test (every row, tiny, once: it must run, its figures mean nothing),
// on the package the test task compiled
project.addTask('bench:smoke', {
  description: 'Run every benchmark row at a tiny size, once, on the compiled package, and the comparison of two builds with this one as both (CI; about 40 s)',
  steps: [
    { exec: 'ts-node --project test/tsconfig.json build-tools/bench.ts --smoke' },
    { exec: 'ts-node --project test/tsconfig.json build-tools/bench.ts --smoke --against .' },
  ],
});

// --- the main job: synthesize every app under examples/ into YAML
// Each example is a cdk8s app (main.ts + cdk8s.yaml) importing `cdk8s-kruise`
// by its package name; in this repository that name is mapped to src/
// (compile-time `paths`, run-time tsconfig-paths), and ts-node transpiles with
// swc. `npx projen examples` type-checks them all once with this tsconfig,
// then runs `cdk8s synth` in each (examples/README.md).
new JsonFile(project, 'examples/tsconfig.json', {
  obj: {
    'extends': '../tsconfig.json',
    'compilerOptions': { rootDir: '..', noEmit: true, paths: { 'cdk8s-kruise': ['../src/index.ts'] } },
    'include': ['**/*.ts'],
    'ts-node': { swc: true, require: ['tsconfig-paths/register'] },
  },
  marker: true,
});
project.addTask('examples', {
  description: 'Synthesize every cdk8s app in examples/ into dist/examples/<app>/',
  exec: 'ts-node --project test/tsconfig.json build-tools/synth-examples.ts',
});

// --- the cluster tier: everything the library produces, applied to a real
// kube-apiserver + etcd on loopback (test/cluster/README.md)
// The README's Deploy sequence first, on an empty cluster of its own with
// kube-controller-manager (test/cluster/full/); then the shared-cluster tests;
// then the real-node rung (test/cluster/nodes/): kubelet + containerd +
// kube-proxy on this machine, our control planes as pods, put back as found.
// Four clusters of their own, each started and stopped by cluster.sh: `full` (an empty cluster with
// kube-controller-manager: the README Deploy block, the Rollout plan), `shared` (every synth and the
// kruise-manager files on one cluster), `releases` (one cluster per release, side by side: kruise-manager
// v1.9.1, v1.9.0, v1.8.4 and v1.7.4 and kruise-rollout-manager v0.6.2 and v0.5.5, each judging the admission
// corpus and a seeded sample of generated cases per target release; an app targeting 1.8 deployed with its
// 1.8 control plane) and `nodes` (the real-node rung: kubelet + containerd).
const clusterParts = [
  ['full', 'an empty cluster with kube-controller-manager: the README Deploy block and the update plan under Kruise Rollouts', 'CLUSTER_CONTROLLER_MANAGER=1 bash test/cluster/cluster.sh run -- jest --config test/cluster/jest.full.config.js --runInBand'],
  ['shared', 'one cluster for every synthesized manifest and the kruise-manager files', 'bash test/cluster/cluster.sh run -- jest --config test/cluster/jest.config.js --runInBand'],
  ['releases', 'every release (kruise-manager v1.9.1, v1.9.0, v1.8.4, v1.7.4, kruise-rollout-manager v0.6.2, v0.5.5) on a cluster of its own, side by side, judging our admission per target release with the corpus and KRUISE_GEN_CASES generated cases', 'test "$SKIP_CLUSTER" = 1 && echo "cluster tier: skipped (SKIP_CLUSTER=1)" || jest --config test/cluster/jest.releases.config.js'],
  ['nodes', 'the real-node rung: kubelet + containerd + kruise-daemon, our control planes running as pods', 'CLUSTER_NODES=1 bash test/cluster/cluster.sh run -- jest --config test/cluster/jest.nodes.config.js --runInBand'],
];
for (const [name, what, exec] of clusterParts) {
  project.addTask(`test:cluster:${name}`, { description: `The cluster tier, ${what} (SKIP_CLUSTER=1 skips)`, exec });
}
project.addTask('test:cluster', {
  description: 'Build (first use) and start etcd + kube-apiserver on 127.0.0.1, apply every synth with the cluster tier tests, then run the real-node tests on kubelet + containerd, stop them (SKIP_CLUSTER=1 skips)',
  steps: clusterParts.map(([name]) => ({ spawn: `test:cluster:${name}` })),
});

// --- jsii packages for Python, Java and Go, and their smoke tests
// The Maven and Go registries this project reaches do not serve the cdk8s and
// cdk8s-plus-28 versions we build against (nor constructs 10.3.0 for Go), so
// package-all first generates their Java and Go bindings from the very npm
// packages in node_modules into dist/java and dist/go, next to ours (no
// javadoc: they are build inputs, not something we publish).
const mavenCache = '--maven-local-repository=.cache/m2';
// The wheel is built with exactly the setuptools/build/twine versions pinned here.
const pipConstraint = 'PIP_CONSTRAINT=$PWD/test/python/build-constraints.txt';
const packageDeps = project.addTask('package:deps', {
  description: 'Build the Java and Go bindings of constructs, cdk8s and cdk8s-plus-28 from node_modules into dist/',
  exec: `jsii-pacmak -v --target java --target go --outdir dist ${mavenCache} --mvn-define=maven.javadoc.skip=true node_modules/constructs node_modules/cdk8s node_modules/cdk8s-plus-28`,
});
// One jsii-pacmak run for all four targets (one npm pack, targets in parallel).
project.tasks.tryFind('package-all')!.reset();
project.tasks.tryFind('package-all')!.spawn(packageDeps);
project.tasks.tryFind('package-all')!.exec(`${pipConstraint} jsii-pacmak -v --target js --target java --target python --target go ${mavenCache}`);
project.tasks.tryFind('package:java')!.reset(`jsii-pacmak -v --target java ${mavenCache}`);
project.tasks.tryFind('package:python')!.reset(`${pipConstraint} jsii-pacmak -v --target python`);
project.gitignore.addPatterns('/test/java/target/');
project.addTask('test:languages', {
  description: 'Package every jsii target, then prove the Python, Java and Go packages synthesize the reference app byte-identically to TypeScript',
  exec: 'bash test/smoke/run.sh',
});

// The test command also proves the jsii build (every public type usable from
// all jsii languages) and regenerates API.md from it.
project.testTask.prependSpawn(project.tasks.tryFind('docgen')!);
project.testTask.prependSpawn(project.compileTask);

// One line per skipped group of tests at the end of the run, outside jest's console frames (test/util/reference.ts).
project.jest!.addReporter(new javascript.JestReporter('<rootDir>/test/util/skip-reporter.js'));

// --- the newcomer's path: the README's Install and Quick start, followed offline in a temporary folder
// with the npm tarball of this build (test/newcomer/run.ts). `.ci/run` runs it after the test command, first in its lane B.
project.addTask('test:newcomer', {
  description: 'Follow the README offline: cdk8s init typescript-app, the library from the local tarball, the quick start, cdk8s synth, npm run build, npm test',
  steps: [
    { spawn: 'package:js' },
    { exec: 'ts-node --project test/tsconfig.json test/newcomer/run.ts', receiveArgs: true },
  ],
});

project.package.addField('types', 'lib/src/index.d.ts');
// npm 11 runs no dependency install script it was not told about, and ends every install with a list of
// them. Neither is needed here: @swc/core's postinstall only looks for a fallback when its native binding
// (an optional dependency) is missing, and @parcel/watcher (jest's file watcher) builds from source only
// without its prebuilt binary. Recorded as denied, so `npm ci` prints nothing but its summary.
project.package.addField('allowScripts', { '@parcel/watcher': false, '@swc/core': false });
// The npm package ships what runs and what documents: lib/ (the compiled JS
// and its .d.ts, the L1 included), .jsii, schemas/*.json (read at synth),
// bin/, README.md, API.md, docs/ and the bundled dependencies. Not the L1's
// TypeScript source next to its compiled JS, nor the CRD files (the control
// plane renders them from the API model), tests, examples or tooling.
project.npmignore?.addPatterns('/build-tools/', '/examples/', '/.ci/', '/schemas/*.md', '/imports/', '/crds/', '/.github/', '/test-reports/',
  // the cluster tier's and the language tier's build caches (binaries, Maven repository)
  '/.cache/');

project.synth();
