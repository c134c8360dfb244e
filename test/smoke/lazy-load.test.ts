/**
 * `require('cdk8s-kruise')` loads no module of the package but its index:
 * each export loads its own module on first access (build-tools/lazy-exports.ts),
 * and so does each name of the L1 namespaces, one module per kind and version.
 * A synth loads, per kind it meets, that kind's L1 class, its build-time
 * schema validator and its admission module, and nothing of the other kinds;
 * ajv's compiler, the API model, the YAML parser and the update planner load
 * only when used. Checked on the compiled package (lib/, which the test task
 * compiles before jest runs), in a fresh node.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
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

/** The modules loaded from `dir` (a folder of the package), by name without `.js`, sorted. */
const modulesIn = (loaded: string[], dir: string) => loaded
  .filter(f => path.dirname(f) === dir && f.endsWith('.js'))
  .map(f => path.basename(f, '.js'))
  .sort();

/** Per kind: the L1 modules (kind and version), the schema validators and the admission modules loaded. */
const perKind = (loaded: string[]) => ({
  kruiseL1: modulesIn(loaded, 'lib/imports/kruise').filter(m => m !== 'index'),
  rolloutsL1: modulesIn(loaded, 'lib/imports/rollouts').filter(m => m !== 'index'),
  validators: modulesIn(loaded, 'schemas'),
  // (the engine's own parts: one object's verdict, the checks across objects)
  admission: modulesIn(loaded, 'lib/src/admission').filter(m => !['engine', 'index', 'types', 'judge', 'app-wide'].includes(m) && !m.startsWith('_')),
});

const heavy = (loaded: string[]) => ({
  ajvCompiler: loaded.some(f => f.startsWith(dependency('ajv')) && !f.startsWith(`${dependency('ajv')}dist${path.sep}runtime${path.sep}`)),
  yaml: loaded.some(f => f.startsWith(dependency('yaml'))),
  apiModel: loaded.includes('lib/src/api/index.js'), // the kinds (a helper or two of src/api may load)
  planner: loaded.includes('lib/src/plan/planner.js'),
  fleetCheck: loaded.includes('lib/src/fleet/fleet-engine.js'),
});

const NOTHING_HEAVY = { ajvCompiler: false, yaml: false, apiModel: false, planner: false, fleetCheck: false };
const NO_KIND = { kruiseL1: [], rolloutsL1: [], validators: [], admission: [] };

const ours = (loaded: string[]) => loaded.filter(f => f.startsWith('lib/'));

test('require loads none of the heavy parts, and no module of the package but its index', () => {
  const loaded = loadedAfter('');
  expect(heavy(loaded)).toEqual(NOTHING_HEAVY);
  expect(perKind(loaded)).toEqual(NO_KIND);
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

test.each(['kruise', 'rollouts'])('every class and enum of the %s namespace is there, and stays the same value', ns => {
  const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf-8'));
  const names: string[] = Object.values<any>(assembly.types)
    .filter(t => t.fqn.startsWith(`cdk8s-kruise.${ns}.`) && t.kind !== 'interface')
    .map(t => t.name);
  expect(names.length).toBeGreaterThan(10);
  const script = `const names = ${JSON.stringify(names)};\n`
    + `const missing = names.filter(n => lib.${ns}[n] === undefined || lib.${ns}[n] !== lib.${ns}[n]);\n`
    + "if (missing.length > 0) throw new Error('not exported: ' + missing.join(', '));";
  expect(() => loadedAfter(script)).not.toThrow();
});

test('an export loads the module that defines it, not the rest of its folder', () => {
  const loaded = loadedAfter('lib.KruiseControlPlane;');
  expect(ours(loaded)).toContain('lib/src/control-plane/control-plane.js');
  expect(ours(loaded)).not.toContain('lib/src/control-plane/rollout-control-plane.js');
  expect(ours(loaded)).not.toContain('lib/src/clone-set.js');
  expect(perKind(loaded)).toEqual(NO_KIND);
});

test('a small app (a CloneSet and its budget) loads those two kinds and nothing of the others', () => {
  const loaded = loadedAfter([
    "const { App, Chart } = require('cdk8s');",
    "const kplus = require('cdk8s-plus-28');",
    'const app = new App();',
    "const web = new lib.CloneSet(new Chart(app, 'c'), 'web', {",
    "  containers: [{ image: 'nginx:1.27' }],",
    '  updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }),',
    '});',
    'web.protect({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });',
    'if (!/kind: PodUnavailableBudget/.test(app.synthYaml())) throw new Error("no budget");',
  ].join('\n'));
  expect(perKind(loaded)).toEqual({
    kruiseL1: ['clone-set-v1alpha1', 'pod-unavailable-budget-v1alpha1'],
    rolloutsL1: [],
    validators: ['apps.kruise.io_v1alpha1_cloneset', 'policy.kruise.io_v1alpha1_podunavailablebudget'],
    admission: ['clone-set', 'pod-unavailable-budget'],
  });
  expect(heavy(loaded)).toEqual(NOTHING_HEAVY);
  // the constructs load their kinds' L1 modules directly, not the namespace index (hundreds of names)
  expect(loaded).not.toContain('lib/imports/kruise/index.js');
  // the L2 constructs: the two used, their shared base and strategies (a workload's Rollout, spread, jobs load on request)
  expect(modulesIn(loaded, 'lib/src')).toEqual(['_kruise-l1', 'clone-set', 'index', 'kruise-workload', 'pod-unavailable-budget', 'strategies']);
  // no context, no fleet check: neither is loaded
  expect(loaded).not.toContain('lib/src/fleet/context.js');
});

/** The schema folders of older releases (schemas/<product>-<line>/) a run loaded files of. */
const releaseFolders = (loaded: string[]) => [...new Set(loaded.filter(f => f.startsWith('schemas/') && f.split('/').length > 2).map(f => f.split('/')[1]))].sort();

test('an app targets one release: only its schemas load, and the default release loads no older one', () => {
  const sidecarApp = (declare: string) => [
    "const { App, Chart } = require('cdk8s');",
    "const kplus = require('cdk8s-plus-28');",
    'const app = new App();',
    declare,
    "new lib.SidecarSet(new Chart(app, 'c'), 'logging', {",
    "  selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),",
    "  containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.0' }],",
    '});',
    'app.synthYaml();',
  ].join('\n');
  const onDefault = loadedAfter(sidecarApp(''));
  expect(releaseFolders(onDefault)).toEqual([]);
  expect(perKind(onDefault).validators).toEqual(['apps.kruise.io_v1beta1_sidecarset']);

  const on18 = loadedAfter(sidecarApp("new lib.KruiseContext(app, 'cluster', { openKruise: '1.8' });"));
  expect(releaseFolders(on18)).toEqual(['openkruise-1.8']);
  expect(on18.filter(f => f.startsWith('schemas/openkruise-1.8/'))).toEqual(['schemas/openkruise-1.8/apps.kruise.io_v1alpha1_sidecarset.js']);
  expect(perKind(on18).validators).toEqual([]);
  expect(heavy(on18)).toEqual(NOTHING_HEAVY);
});

test('included YAML loads the L1 class, validator and rules of the kinds it holds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-load-'));
  const file = path.join(dir, 'pub.yaml');
  fs.writeFileSync(file, [
    'apiVersion: policy.kruise.io/v1alpha1',
    'kind: PodUnavailableBudget',
    'metadata: { name: web }',
    'spec: { maxUnavailable: 1, selector: { matchLabels: { app: web } } }',
  ].join('\n'));
  try {
    const loaded = loadedAfter([
      "const { App, Chart } = require('cdk8s');",
      'const app = new App();',
      `new lib.KruiseInclude(new Chart(app, 'c'), 'legacy', { url: ${JSON.stringify(file)} });`,
      'app.synthYaml();',
    ].join('\n'));
    expect(perKind(loaded)).toEqual({
      kruiseL1: ['pod-unavailable-budget-v1alpha1'],
      rolloutsL1: [],
      validators: ['policy.kruise.io_v1alpha1_podunavailablebudget'],
      admission: ['pod-unavailable-budget'],
    });
    expect(heavy(loaded)).toEqual(NOTHING_HEAVY);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the kruise namespace is there on first access, the same object every time, and loads the classes asked for', () => {
  const loaded = loadedAfter("if (lib.kruise.KubeCloneSet.GVK.kind !== 'CloneSet' || lib.kruise !== lib.kruise) throw new Error('kruise namespace');");
  expect(perKind(loaded)).toEqual({ ...NO_KIND, kruiseL1: ['clone-set-v1alpha1'] });
});

test('the rollouts namespace is there on first access, the same object every time, and loads the classes asked for', () => {
  const loaded = loadedAfter("if (lib.rollouts.KubeRollout.GVK.kind !== 'Rollout' || lib.rollouts !== lib.rollouts) throw new Error('rollouts namespace');");
  expect(perKind(loaded)).toEqual({ ...NO_KIND, rolloutsL1: ['rollout-v1beta1'] });
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

test('cdk8s-kruise check loads no cdk8s, no construct and no L1: the reader, the rules of the kinds it meets and the checks across them', () => {
  const loaded = checkLoads([]);
  expect(loaded.some(f => f.startsWith(dependency('cdk8s')) || f.startsWith(dependency('constructs')) || f.startsWith(dependency('cdk8s-plus-28')))).toBe(false);
  expect({ ...heavy(loaded), yaml: undefined }).toEqual({ ...NOTHING_HEAVY, yaml: undefined });
  expect(perKind(loaded)).toEqual({ ...NO_KIND, validators: ['apps.kruise.io_v1alpha1_cloneset'], admission: ['clone-set'] });
  expect(releaseFolders(loaded)).toEqual([]);
});

test('cdk8s-kruise check --openkruise 1.8 loads that release\'s schema of the kinds it meets, and still no cdk8s', () => {
  const loaded = checkLoads(['--openkruise', '1.8']);
  expect(loaded.some(f => f.startsWith(dependency('cdk8s')) || f.startsWith(dependency('constructs')) || f.startsWith(dependency('cdk8s-plus-28')))).toBe(false);
  expect(releaseFolders(loaded)).toEqual(['openkruise-1.8']);
  expect(loaded.filter(f => f.startsWith('schemas/openkruise-1.8/'))).toEqual(['schemas/openkruise-1.8/apps.kruise.io_v1alpha1_cloneset.js']);
  expect(perKind(loaded)).toEqual({ ...NO_KIND, admission: ['clone-set'] });
});

/** The modules `cdk8s-kruise check ARGS web.yaml` (an admitted CloneSet) loads, in a fresh node. */
function checkLoads(args: string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-check-'));
  const file = path.join(dir, 'web.yaml');
  fs.writeFileSync(file, 'apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n'
    + '    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: "nginx:1.27"}]}\n');
  const argv = JSON.stringify(['check', ...args, file]);
  const program = `const code = require(${JSON.stringify(path.join(ROOT, 'lib', 'src', 'cli.js'))}).main(${argv}, { out: () => undefined, err: t => { throw new Error(t); } });\n`
    + "if (code !== 0) throw new Error('refused');\n"
    + `console.log(JSON.stringify(Object.keys(require.cache).map(f => require('path').relative(${JSON.stringify(ROOT)}, f))));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', program], { cwd: ROOT, encoding: 'utf-8' }).trim().split('\n').pop()!);
}
