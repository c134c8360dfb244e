import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { PLAN_GOLDEN, PLAN_ROLLOUT_GOLDEN } from '../fixtures/plan-golden';

function run(argv: string[], cwd?: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(argv, { out: t => { out += t; }, err: t => { err += t; }, cwd });
  return { code, out, err };
}

const golden = (id: string) => PLAN_GOLDEN.find(c => c.id === id)!;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'plan-'));
function writeDir(objs: any[]): string {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'app.k8s.yaml'), objs.map(o => stringify(o)).join('---\n'));
  return d;
}

test('two directories, table: exit 0 and the verdict per workload', () => {
  const c = golden('image-only');
  const r = run(['plan', '--old', writeDir(c.old), '--new', writeDir(c.new)]);
  expect(r.code).toBe(0);
  expect(r.err).toBe('');
  expect(r.out.split('\n').slice(0, 2)).toEqual([
    'OBJECT                UPDATE   UPDATED  OLD  BATCHES',
    'CloneSet default/web  InPlace        4    0  1,1,1,1',
  ]);
  expect(r.out).toContain('Result: nothing the cluster will refuse.');
});

test('a change the cluster refuses exits 2 (the CI gate); markdown names the field', () => {
  const c = golden('in-place-only-env-rejected');
  const r = run(['plan', '--old', writeDir(c.old), '--new', writeDir(c.new), '--format', 'markdown']);
  expect(r.code).toBe(2);
  expect(r.out).toContain('| CloneSet default/web | **Rejected** | 0 | 4 | - |');
  expect(r.out).toContain('spec.template.spec.containers[0].env[0].value: "green" is a replace in the pod template');
});

test('json output is the report; --feature-gates turns vertical scaling on', () => {
  const c = golden('resources-gate-on');
  const off = JSON.parse(run(['plan', '--old', writeDir(c.old), '--new', writeDir(c.new), '--format', 'json']).out);
  expect(off.workloads[0].updateType).toBe('Recreate');
  const on = JSON.parse(run(['plan', '--old', writeDir(c.old), '--new', writeDir(c.new), '--format', 'json', '--feature-gates', 'InPlaceWorkloadVerticalScaling=true']).out);
  expect([on.workloads[0].updateType, on.workloads[0].resizedContainers, on.featureGates.InPlaceWorkloadVerticalScaling]).toEqual(['InPlace', ['app'], true]);
});

test('--git-ref compares the committed dist/ with the working tree', () => {
  const repo = tmp();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'trunk');
  git('config', 'user.email', 'dev@example.invalid');
  git('config', 'user.name', 'dev');
  const c = golden('partition-percent');
  fs.mkdirSync(path.join(repo, 'dist'));
  fs.writeFileSync(path.join(repo, 'dist', 'app.k8s.yaml'), stringify(c.old[0]));
  git('add', 'dist');
  git('commit', '-q', '-m', 'old');
  fs.writeFileSync(path.join(repo, 'dist', 'app.k8s.yaml'), stringify(c.new[0]));
  const r = run(['plan', '--git-ref', 'HEAD', '--dir', 'dist', '--format', 'json'], repo);
  expect(r.err).toBe('');
  const w = JSON.parse(r.out).workloads[0];
  expect([w.updateType, w.podsUpdated, w.podsOnOldRevision]).toEqual(['InPlace', 2, 2]);
  const bad = run(['plan', '--git-ref', 'no-such-branch', '--dir', 'dist'], repo);
  expect([bad.code, bad.err]).toEqual([1, "cdk8s-kruise plan: --git-ref: 'no-such-branch' is not a commit, branch or tag of this repository; pass one that exists, e.g. trunk, HEAD~1\n"]);
  const empty = run(['plan', '--git-ref', 'HEAD', '--dir', 'nothing'], repo);
  expect(empty.err).toBe("cdk8s-kruise plan: --git-ref: 'HEAD' has no .yaml, .yml or .json files under 'nothing'; commit the synthesized manifests, or compare directories with --old and --new\n");
});

test('--git-ref: a remote branch not fetched yet is not suggested back; a git-ignored dist/ is named with the line that ignores it', () => {
  const repo = tmp();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.invalid');
  git('config', 'user.name', 'dev');
  // the cdk8s app template's .gitignore
  fs.writeFileSync(path.join(repo, '.gitignore'), '*.js\nnode_modules\ndist/\n');
  git('add', '.gitignore');
  git('commit', '-q', '-m', 'app');
  git('remote', 'add', 'origin', 'https://example.invalid/app.git');
  const notFetched = run(['plan', '--git-ref', 'origin/main'], repo);
  expect([notFetched.code, notFetched.err]).toEqual([1, "cdk8s-kruise plan: --git-ref: 'origin/main' is not a commit, branch or tag of this repository; "
    + 'fetch it first (git fetch origin), or pass one that exists, e.g. main, HEAD~1\n']);
  fs.mkdirSync(path.join(repo, 'dist'));
  fs.writeFileSync(path.join(repo, 'dist', 'app.k8s.yaml'), stringify(golden('partition-percent').new[0]));
  const ignored = run(['plan', '--git-ref', 'main'], repo);
  expect([ignored.code, ignored.err]).toEqual([1, "cdk8s-kruise plan: --git-ref: 'main' has no .yaml, .yml or .json files under 'dist', which git ignores (.gitignore:3: 'dist/'), "
    + "so no commit holds them; commit the synth output (drop that line and commit 'dist'), or synthesize 'main' in a folder of its own and compare folders: "
    + 'git worktree add ../before main && (cd ../before && npm ci && npx cdk8s synth) && npx cdk8s-kruise plan --old ../before/dist --new dist\n']);
});

test('--old-live reads a kubectl List with server fields and defaults: only real changes count', () => {
  const c = golden('image-only');
  const live = JSON.parse(JSON.stringify(c.old[0]));
  Object.assign(live.metadata, { uid: 'u1', resourceVersion: '42', generation: 3, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } });
  live.spec.revisionHistoryLimit = 10;
  live.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 0, maxUnavailable: '20%', maxSurge: 0 };
  live.spec.template.metadata.creationTimestamp = null;
  Object.assign(live.spec.template.spec, { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 });
  Object.assign(live.spec.template.spec.containers[0], { imagePullPolicy: 'Always', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
  live.status = { replicas: 4 };
  const d = tmp();
  fs.writeFileSync(path.join(d, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [live] }));
  const same = JSON.parse(run(['plan', '--old-live', path.join(d, 'live.json'), '--new', writeDir(c.old), '--format', 'json']).out);
  expect([same.workloads, same.unchanged]).toEqual([[], 1]);
  const changed = JSON.parse(run(['plan', '--old-live', path.join(d, 'live.json'), '--new', writeDir(c.new), '--format', 'json']).out);
  expect(changed.workloads[0].updateType).toBe('InPlace');
});

test('--old-live during a Kruise Rollouts release: a re-applied partition fights it (exit 3), a Rollout change the webhook refuses exits 2', () => {
  const c = PLAN_ROLLOUT_GOLDEN.find(x => x.id === 'rollout-cloneset-in-place')!;
  const [rollout, cloneSet] = c.new;
  const liveRollout = { ...rollout, status: { phase: 'Progressing', currentStepIndex: 1, currentStepState: 'StepPaused' } };
  const liveCloneSet = JSON.parse(JSON.stringify(cloneSet));
  liveCloneSet.metadata.annotations = { 'rollouts.kruise.io/in-progressing': '{"rolloutName":"web"}' };
  liveCloneSet.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 3, paused: false };
  const d = tmp();
  const liveFile = path.join(d, 'live.json');
  fs.writeFileSync(liveFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [liveRollout, liveCloneSet] }));
  const reapplied = JSON.parse(JSON.stringify(cloneSet));
  reapplied.spec.updateStrategy.partition = 0;
  const fight = run(['plan', '--old-live', liveFile, '--new', writeDir([rollout, reapplied])]);
  expect(fight.code).toBe(3);
  expect(fight.out).toContain('fights the release in progress: spec.updateStrategy.partition: 0 replaces the partition 3');
  expect(fight.out).toContain('Result: nothing the cluster will refuse; 1 change fights a release in progress.');
  // the same manifests against manifests, not live objects: no release is known, exit 0
  expect(run(['plan', '--old', writeDir(c.new), '--new', writeDir([rollout, reapplied])]).code).toBe(0);
  const fewerSteps = JSON.parse(JSON.stringify(rollout));
  fewerSteps.spec.strategy.canary.steps.pop();
  const refused = run(['plan', '--old-live', liveFile, '--new', writeDir([fewerSteps, cloneSet]), '--format', 'markdown']);
  expect(refused.code).toBe(2);
  expect(refused.out).toContain('| Rollout default/web | **Rejected** | - | - | - |');
});

describe('usage and input errors: exit 1 with one line', () => {
  test.each([
    [['plan'], 'cdk8s-kruise plan: say what runs now: --old DIR, --git-ref REF or --old-live FILE (cdk8s-kruise plan --help)\n'],
    [['deploy'], "cdk8s-kruise: unknown command 'deploy'; the commands are 'plan', 'fleet', 'health' and 'check' (cdk8s-kruise --help)\n"],
    [['plan', '--old', '/nonexistent-a', '--new', '/nonexistent-b'], "cdk8s-kruise plan: --old '/nonexistent-a' does not exist; pass the directory the app synthesizes into (e.g. dist)\n"],
    [['plan', '--old', 'a', '--git-ref', 'HEAD'], 'cdk8s-kruise plan: --old and --git-ref both give the old side; pass only one\n'],
    [['plan', '--old', 'a'], 'cdk8s-kruise plan: --old needs --new DIR, the manifests about to be applied\n'],
    [['plan', '--old', 'a', '--new', 'b', '--format', 'html'], "cdk8s-kruise plan: --format 'html' is not table, markdown or json\n"],
    [['plan', '--old', 'a', '--new', 'b', '--nodes', 'many'], "cdk8s-kruise plan: --nodes 'many' is not a node count; pass a whole number like 3\n"],
  ])('%j', (argv, line) => {
    const r = run(argv);
    expect([r.code, r.err, r.out]).toEqual([1, line, '']);
  });
  test('an unknown feature gate names the flag and lists the gates', () => {
    const c = golden('image-only');
    const r = run(['plan', '--old', writeDir(c.old), '--new', writeDir(c.new), '--feature-gates', 'InPlaceVerticalScaling=true']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^cdk8s-kruise plan: --feature-gates: 'InPlaceVerticalScaling' is not an OpenKruise v1.9.1 feature gate; use one of .*InPlaceWorkloadVerticalScaling/);
    expect(run(['plan', '--old', 'a', '--new', 'b', '--feature-gates', 'X=yes']).err)
      .toBe("cdk8s-kruise plan: --feature-gates: 'X=yes' is not Name=true or Name=false; write e.g. --feature-gates InPlaceWorkloadVerticalScaling=true\n");
  });
  test('bad YAML names the file and line', () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'bad.yaml'), 'kind: CloneSet\nmetadata: [\n');
    const r = run(['plan', '--old', d, '--new', d]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^cdk8s-kruise plan: ${d.replace(/[.]/g, '\\.')}/bad\\.yaml:\\d+: not valid YAML`));
  });
  test('a duplicate object is named', () => {
    const c = golden('image-only');
    const r = run(['plan', '--old', writeDir([...c.old, ...c.old]), '--new', writeDir(c.new)]);
    expect(r.err).toBe('cdk8s-kruise plan: old manifests: CloneSet default/web appears twice; keep one object per name\n');
  });
});

test('--help prints the usage and exits 0', () => {
  const r = run(['plan', '--help']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^usage: cdk8s-kruise plan/);
});
