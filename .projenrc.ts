import { cdk8s, javascript } from 'projen';
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
  bundledDeps: ['ajv@^8.17.1'],
  devDeps: ['json2jsii@^0.5.19', 'yaml@^2.8.1'],

  // No hosted CI or release automation: `.ci/run` is the pipeline.
  github: false,
  release: false,

  // The generated L1 bindings live in a top-level imports/ folder, so jsii
  // compiles from the repository root: src/ and imports/ are both inputs and
  // the entry point becomes lib/src/index.js.
  srcdir: 'src',
  libdir: 'lib',
  entrypoint: 'lib/src/index.js',
  entrypointTypes: 'lib/src/index.d.ts',
  tsconfig: {
    compilerOptions: { rootDir: '.' },
    include: ['src/**/*.ts', 'imports/**/*.ts'],
  },
  tsconfigDev: {
    compilerOptions: {},
    include: ['../build-tools/**/*.ts', '../examples/**/*.ts', '../imports/**/*.ts', '../src/**/*.ts', '../.projenrc.ts', '../projenrc/**/*.ts'],
  },

  jestOptions: {
    // Snapshots are never rewritten by a test run; use `npx projen test:update`.
    updateSnapshot: UpdateSnapshot.NEVER,
    jestConfig: {
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '/lib/'],
      coveragePathIgnorePatterns: ['/node_modules/', '/imports/'],
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
});

// --- generation: one schema source -> CRDs, L1 bindings, validation schemas
project.addTask('gen', {
  description: 'Regenerate crds/, imports/ and schemas/ from the API model in src/api',
  exec: 'ts-node --project test/tsconfig.json build-tools/generate.ts',
});

// --- the main job: synthesize every app under examples/ into YAML
project.addTask('examples', {
  description: 'Synthesize every cdk8s app in examples/ into dist/examples/<app>/',
  exec: 'ts-node --project test/tsconfig.json build-tools/synth-examples.ts',
});

// The test command also proves the jsii build (every public type usable from
// all jsii languages) and regenerates API.md from it.
project.testTask.prependSpawn(project.tasks.tryFind('docgen')!);
project.testTask.prependSpawn(project.compileTask);

project.package.addField('types', 'lib/src/index.d.ts');
project.npmignore?.addPatterns('/build-tools/', '/examples/', '/.ci/', '/schemas/*.md');

project.synth();
