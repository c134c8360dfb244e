/**
 * `require('cdk8s-kruise')` loads no module of the package but its index:
 * each export loads its own module on first access (build-tools/lazy-exports.ts),
 * and the L1 bindings (16k lines), ajv and the JSON schemas, the admission
 * modules, the API model and the YAML parser load when first used. Checked on the compiled package
 * (lib/, which the test task compiles before jest runs), in a fresh node.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const LIB = path.join(ROOT, 'lib', 'src', 'index.js');

/** The modules of the package and of its own dependencies loaded after running `script` (LIB is `lib`). */
function loadedAfter(script: string): string[] {
  if (!fs.existsSync(LIB)) throw new Error(`${LIB} is missing: run \`npx projen compile\` first`);
  const program = `const lib = require(${JSON.stringify(LIB)});\n${script}\n`
    + `console.log(JSON.stringify(Object.keys(require.cache).map(f => require('path').relative(${JSON.stringify(ROOT)}, f))));`;
  const out = execFileSync(process.execPath, ['-e', program], { cwd: ROOT, encoding: 'utf-8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** The package's own dependency `name` (top-level node_modules, which may be a link), as `loadedAfter` names its files. */
function dependency(name: string): string {
  return path.relative(ROOT, path.join(fs.realpathSync(path.join(ROOT, 'node_modules')), name)) + path.sep;
}

const heavy = (loaded: string[]) => ({
  l1: loaded.includes('lib/imports/kruise.js'),
  rolloutsL1: loaded.includes('lib/imports/rollouts.js'),
  ajv: loaded.some(f => f.startsWith(dependency('ajv'))),
  yaml: loaded.some(f => f.startsWith(dependency('yaml'))),
  apiModel: loaded.includes('lib/src/api/index.js'), // the kinds (a helper or two of src/api may load)
  admissionModules: loaded.includes('lib/src/admission/clone-set.js'),
  planner: loaded.includes('lib/src/plan/planner.js'),
  fleetCheck: loaded.includes('lib/src/fleet/fleet-engine.js'),
});

const ours = (loaded: string[]) => loaded.filter(f => f.startsWith('lib/'));

test('require loads none of the heavy parts, and no module of the package but its index', () => {
  const loaded = loadedAfter('');
  expect(heavy(loaded)).toEqual({
    l1: false, rolloutsL1: false, ajv: false, yaml: false, apiModel: false, admissionModules: false, planner: false, fleetCheck: false,
  });
  expect(ours(loaded)).toEqual(['lib/src/index.js']);
  expect(loaded.some(f => f.startsWith(dependency('cdk8s-plus-28')))).toBe(false);
});

test('every class and enum of the jsii assembly is an export, and stays the same value', () => {
  const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf-8'));
  const names: string[] = Object.values<any>(assembly.types)
    .filter(t => t.fqn.split('.').length === 2 && t.kind !== 'interface')
    .map(t => t.name);
  expect(names).toContain('CloneSet');
  expect(names).toContain('KruiseControlPlane');
  const script = `const names = ${JSON.stringify(names)};\n`
    + 'const missing = names.filter(n => lib[n] === undefined || lib[n] !== lib[n]);\n'
    + "if (missing.length > 0) throw new Error('not exported: ' + missing.join(', '));";
  expect(() => loadedAfter(script)).not.toThrow();
});

test('an export loads the module that defines it, not the rest of its folder', () => {
  const loaded = ours(loadedAfter('lib.KruiseControlPlane;'));
  expect(loaded).toContain('lib/src/control-plane/control-plane.js');
  expect(loaded).not.toContain('lib/src/control-plane/rollout-control-plane.js');
  expect(loaded).not.toContain('lib/src/clone-set.js');
  expect(loaded).not.toContain('lib/imports/kruise.js');
});

test('a synth loads what it uses: a CloneSet brings the L1, ajv and its rules, not the API model or YAML parser', () => {
  const loaded = loadedAfter([
    "const { App, Chart } = require('cdk8s');",
    'const app = new App();',
    "new lib.CloneSet(new Chart(app, 'c'), 'web', { containers: [{ image: 'nginx:1.27' }] });",
    'app.synthYaml();',
  ].join('\n'));
  expect(heavy(loaded)).toEqual({
    l1: true, rolloutsL1: false, ajv: true, yaml: false, apiModel: false, admissionModules: true, planner: false, fleetCheck: false,
  });
  // no context, no fleet check: neither is loaded
  expect(loaded).not.toContain('lib/src/fleet/context.js');
});

test('the kruise namespace is there on first access, the same object every time', () => {
  const loaded = loadedAfter("if (lib.kruise.KubeCloneSet.GVK.kind !== 'CloneSet' || lib.kruise !== lib.kruise) throw new Error('kruise namespace');");
  expect(heavy(loaded).l1).toBe(true);
});

test('the rollouts namespace is there on first access, the same object every time', () => {
  const loaded = loadedAfter("if (lib.rollouts.KubeRollout.GVK.kind !== 'Rollout' || lib.rollouts !== lib.rollouts) throw new Error('rollouts namespace');");
  expect(heavy(loaded).rolloutsL1).toBe(true);
});

test('the update planner loads with the first plan', () => {
  const loaded = loadedAfter("if (lib.UpdatePlan.compare([], []).workloads.length !== 0) throw new Error('empty plan');");
  expect(heavy(loaded).planner).toBe(true);
});

test('the fleet check loads with the first check', () => {
  const loaded = loadedAfter("if (lib.FleetCheck.run({ policies: [], sources: [] }).policies.length !== 0) throw new Error('empty check');");
  expect(heavy(loaded).fleetCheck).toBe(true);
  expect(heavy(loaded).planner).toBe(false);
});
