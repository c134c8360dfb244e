/**
 * Preloaded (NODE_OPTIONS=--require) into `cdk8s init typescript-app` by the
 * newcomer test, which runs offline. The template's post-install hook runs
 * `npm install`, `npm run import`, `npm run compile`, `npm run test -- -u`
 * and `npm run synth`. Two of them cannot work without the network:
 *
 * - `npm run import` downloads the Kubernetes schema (cdk8s import): skipped,
 *   as the README says an app built on cdk8s-plus-28 does not need it;
 * - `npm install` can only get what the local registry holds, this
 *   repository's node_modules: before it runs, each devDependency range of
 *   the template that no installed version satisfies is replaced by the one
 *   NEWCOMER_OVERRIDES names (the nearest newer version there), and said so.
 *
 * Every other command of the hook runs as the template wrote it.
 */
const childProcess = require('child_process');
const fs = require('fs');

const execSync = childProcess.execSync;
childProcess.execSync = function offlineExecSync(command, options) {
  if (command === 'npm run import') {
    process.stderr.write('[newcomer] offline: skipped `npm run import` (cdk8s import downloads the Kubernetes schema; the app does not use it)\n');
    return Buffer.alloc(0);
  }
  if (command === 'npm install' && process.env.NEWCOMER_OVERRIDES) {
    const overrides = JSON.parse(process.env.NEWCOMER_OVERRIDES);
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf-8'));
    for (const [name, range] of Object.entries(overrides)) {
      for (const field of ['dependencies', 'devDependencies']) {
        if (pkg[field] && pkg[field][name] !== undefined) {
          process.stderr.write(`[newcomer] offline: ${field}.${name} ${pkg[field][name]} -> ${range} (the nearest version this repository installs)\n`);
          pkg[field][name] = range;
        }
      }
    }
    fs.writeFileSync('package.json', `${JSON.stringify(pkg, undefined, 2)}\n`);
  }
  return execSync.call(this, command, options);
};
