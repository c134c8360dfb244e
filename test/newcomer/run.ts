/**
 * `npx projen test:newcomer`: the README's path for a new user, followed to
 * the letter in a temporary folder, offline.
 *
 *   <tmp>/cdk8s-kruise   the clone of Install, step 2: here only the npm tarball
 *                        that `npx projen package:js` just built, in dist/js/
 *   <tmp>/bin/cdk8s      the cdk8s CLI of devDependencies (Install, step 1:
 *                        `npm install -g cdk8s-cli`)
 *   <tmp>/my-app         made by the README's step 3 block, run by bash as
 *                        written: `cdk8s init typescript-app`, the tarball, ...
 *
 * then the quick start: the README's `main.ts` and `main.test.ts` blocks are
 * written into the app and its shell block runs (`npx cdk8s synth`,
 * `npm test`, `npm run build`). The app's `dist/` must hold the control plane
 * and the CloneSet.
 *
 * Offline means: npm installs from a registry on 127.0.0.1 that serves this
 * repository's node_modules (registry.ts), with an empty npm cache of its
 * own; `cdk8s init` skips `cdk8s import` (offline-init.js), and the template's
 * devDependency ranges that node_modules cannot satisfy (jest 29 here, where
 * the repository has 30) get the nearest newer version, printed as they are.
 *
 * NEWCOMER_KEEP=1 keeps the temporary folder.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { inventory, nearest, startRegistry } from './registry';
import { Block, ROOT, fencedBlocks } from '../util/markdown';

const TEMPLATE = path.join(ROOT, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app');

interface Step { readonly name: string; readonly seconds: number }
const steps: Step[] = [];

function fail(message: string): never {
  process.stderr.write(`newcomer: FAILED: ${message}\n`);
  process.exit(1);
}

/** Runs `script` with bash -e in `cwd`, echoing it and its output; fails the test when it fails. */
function bash(name: string, script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const start = Date.now();
  process.stdout.write(`\n==> ${name} (in ${cwd})\n${script.trimEnd().split('\n').map(l => `  $ ${l}`).join('\n')}\n`);
  return new Promise(resolve => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `cd ${JSON.stringify(cwd)}\n${script}`], { cwd, env: { ...env, PWD: cwd }, stdio: 'inherit' });
    child.on('close', code => {
      if (code !== 0) fail(`${name}: exit ${code}`);
      steps.push({ name, seconds: (Date.now() - start) / 1000 });
      resolve();
    });
  });
}

/** The one block of the README that `pick` chooses, or a failure saying which is missing. */
function readmeBlock(what: string, pick: (b: Block) => boolean): Block {
  const found = fencedBlocks('README.md').filter(pick);
  if (found.length !== 1) fail(`README.md has ${found.length} blocks of ${what}, not 1`);
  return found[0];
}

async function main() {
  const started = Date.now();
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')).version;
  const tarball = path.join(ROOT, 'dist', 'js', `cdk8s-kruise@${version}.jsii.tgz`);
  if (!fs.existsSync(tarball)) fail(`${path.relative(ROOT, tarball)} is missing: run npx projen compile, then npx projen package:js`);

  // The README's steps. Step 1 (the CLI) is this repository's cdk8s-cli; step 2 (the tarball) is package:js.
  readmeBlock('the cdk8s CLI (npm install -g cdk8s-cli)', b => b.lang === 'sh' && /^npm install -g cdk8s-cli\b/m.test(b.code));
  const build = readmeBlock('the local build (npx projen package:js)', b => b.lang === 'sh' && /npx projen package:js/.test(b.code));
  const newApp = readmeBlock('a new app (cdk8s init typescript-app)', b => b.lang === 'sh' && /^cdk8s init typescript-app$/m.test(b.code));
  const mainTs = readmeBlock('the quick start main.ts', b => b.lang === 'ts' && b.file === 'main.ts');
  const testTs = readmeBlock('the quick start main.test.ts', b => b.lang === 'ts' && b.file === 'main.test.ts');
  const quick = readmeBlock('the quick start commands (npx cdk8s synth)', b => b.lang === 'sh' && /^npx cdk8s synth\b/m.test(b.code));
  if (!newApp.code.includes(path.relative(ROOT, tarball))) fail(`the new-app block of README.md does not install ${path.relative(ROOT, tarball)}`);
  if (!/dist\/js\/cdk8s-kruise@0\.0\.0\.jsii\.tgz/.test(build.code)) fail('the local-build block of README.md does not name the tarball it builds');

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'newcomer-'));
  const registry = await startRegistry(inventory(path.join(ROOT, 'node_modules')));
  try {
    const clone = path.join(tmp, 'cdk8s-kruise');
    fs.mkdirSync(path.join(clone, 'dist', 'js'), { recursive: true });
    fs.copyFileSync(tarball, path.join(clone, path.relative(ROOT, tarball)));
    fs.mkdirSync(path.join(tmp, 'bin'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', '.bin', 'cdk8s'), path.join(tmp, 'bin', 'cdk8s'));
    fs.writeFileSync(path.join(tmp, 'npmrc'), '');

    // What the template asks for that this repository's node_modules cannot give.
    const inv = inventory(path.join(ROOT, 'node_modules'));
    const template = JSON.parse(fs.readFileSync(path.join(TEMPLATE, 'package.json'), 'utf-8'));
    const overrides: Record<string, string> = {};
    for (const [name, range] of Object.entries<string>(template.devDependencies ?? {})) {
      if (range.includes('{{')) continue; // filled in by cdk8s init from its own versions
      const n = nearest(inv, name, range);
      if (!n.version) fail(`the template's devDependency ${name} ${range}: no version of it in node_modules`);
      if (!n.satisfies) overrides[name] = `^${n.version}`;
    }

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.join(tmp, 'bin')}:${process.env.PATH}`,
      npm_config_registry: registry.url,
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_userconfig: path.join(tmp, 'npmrc'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      CDK8S_CHECK_UPGRADE: 'false',
      NODE_OPTIONS: `--require ${path.join(__dirname, 'offline-init.js')}`,
      NEWCOMER_OVERRIDES: JSON.stringify(overrides),
    };
    // the app's own jest must not think it runs in this repository's CI, nor be sent here by jest's
    for (const k of Object.keys(env)) if (k.startsWith('JEST_') || k === 'CI') delete env[k];

    await bash('README Install, step 3: a new app', newApp.code, path.join(tmp, 'cdk8s-kruise'), env);
    const app = path.join(tmp, 'my-app');
    if (!fs.existsSync(path.join(app, 'package.json'))) fail('the new-app block made no app in my-app/');
    // what the README says of step 3: no `imports:` left for cdk8s synth to download, and the app's own
    // dependencies name cdk8s-plus-28, not the cdk8s-plus-33 that cdk8s-cli keeps in node_modules
    const cdk8sYaml = fs.readFileSync(path.join(app, 'cdk8s.yaml'), 'utf-8');
    if (/^imports:/m.test(cdk8sYaml)) fail(`my-app/cdk8s.yaml still has imports:\n${cdk8sYaml}`);
    const deps = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf-8')).dependencies ?? {};
    if (deps['cdk8s-plus-33'] !== undefined || deps['cdk8s-plus-28'] === undefined) fail(`my-app's dependencies: ${JSON.stringify(deps)}`);

    fs.writeFileSync(path.join(app, 'main.ts'), mainTs.code);
    fs.writeFileSync(path.join(app, 'main.test.ts'), testTs.code);
    const { NODE_OPTIONS: _preload, NEWCOMER_OVERRIDES: _o, ...appEnv } = env;
    await bash('README Quick start', quick.code, app, appEnv);

    const dist = fs.readdirSync(path.join(app, 'dist')).sort();
    if (JSON.stringify(dist) !== JSON.stringify(['0000-kruise.k8s.yaml', '0001-web.k8s.yaml'])) fail(`my-app/dist holds ${dist.join(', ')}`);
    const web = fs.readFileSync(path.join(app, 'dist', '0001-web.k8s.yaml'), 'utf-8');
    for (const want of ['kind: CloneSet', 'kind: PodUnavailableBudget', 'image: nginxinc/nginx-unprivileged:1.27']) {
      if (!web.includes(want)) fail(`my-app/dist/0001-web.k8s.yaml has no "${want}"`);
    }
    // docs/update-plan.md: the package's command runs in the app as `npx cdk8s-kruise`
    await bash('docs/update-plan.md: npx cdk8s-kruise in the app', 'npx --no-install cdk8s-kruise plan --help | head -n 1 | grep -q "^usage: cdk8s-kruise plan"', app, appEnv);
    const versions = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf-8'));
    process.stdout.write(`\nnewcomer: the app's dependencies: ${JSON.stringify(versions.dependencies)}\n`);
    process.stdout.write(`newcomer: the local registry served ${registry.served.packuments} packuments and ${registry.served.tarballs} tarballs\n`);
  } finally {
    await registry.close();
    if (process.env.NEWCOMER_KEEP === '1') process.stdout.write(`newcomer: kept ${tmp}\n`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(`\nnewcomer: passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n${steps.map(s => `  ${s.name}: ${s.seconds.toFixed(0)} s`).join('\n')}\n`);
}

main().catch(e => fail(e instanceof Error ? e.stack ?? e.message : String(e)));
