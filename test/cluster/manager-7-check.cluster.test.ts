/**
 * `cdk8s-kruise check` against the real API server and the released
 * kruise-manager's webhooks, where the check added a rule or a path of its
 * own: manifests as others write them (a namespace on a cluster-scoped kind,
 * a null field, a key with a newline, no selector, a label YAML reads as a
 * boolean, an AdvancedCronJob whose BroadcastJob template lacks a
 * restartPolicy) and the checks across documents (two SidecarSets injecting
 * one container). Each document is read as the check reads it (kubectl's
 * YAML rules) and created with a server-side dry run and strict field
 * validation, as `kubectl apply` sends it; the verdicts must agree, or the
 * case says why we refuse on purpose.
 */
import { Kube, Manifest } from './kube';
import { Managers, judgingSynth, runControlPlane, testNamespace } from './manager';
import { runCheck } from '../../src/check/check';
import { parseDocuments } from '../../src/check/read';
import { checkTarget } from '../../src/check/releases';

let kube: Kube;
let managers: Managers;
const NAMESPACE = 'check-judge';

beforeAll(async () => {
  kube = new Kube();
  ({ managers } = await runControlPlane(kube, judgingSynth()));
  await testNamespace(kube, NAMESPACE);
  await kube.request('DELETE', '/apis/apps.kruise.io/v1beta1/sidecarsets');
});

afterAll(async () => {
  if (managers) await managers.stopAll();
  kube.close();
});

const CLONESET = (extra: string, spec = '  selector:\n    matchLabels: {app: web}\n') => `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: web, namespace: ${NAMESPACE}}
spec:
${spec}  template:
    metadata:
      labels: {app: web}
    spec:
      containers: [{name: web, image: "nginx:1.27"}]
  updateStrategy:
    type: InPlaceIfPossible
${extra}`;

interface Case {
  readonly id: string;
  readonly yaml: string;
  /** Set when the check refuses on purpose what the cluster admits: why (docs/admission.md lists each). */
  readonly stricter?: string;
}

const CASES: Case[] = [
  { id: 'a namespace on a SidecarSet (cluster-scoped)', yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: SidecarSet\nmetadata: {name: check-ns, namespace: default}\nspec:\n  selector: {matchLabels: {app: check-ns}}\n  containers: [{name: c, image: "c:1"}]\n' },
  {
    id: 'a namespace on a ResourceDistribution (cluster-scoped)',
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: ResourceDistribution\nmetadata: {name: check-rd, namespace: default}\nspec:\n  resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}\n  targets: {allNamespaces: true}\n',
  },
  { id: 'a null field that is not in the schema', yaml: CLONESET('    rollingUpdate:\n') },
  { id: 'a key with a newline', yaml: CLONESET('    "max\\nSurge": 1\n') },
  { id: 'no selector', yaml: CLONESET('', '') },
  { id: 'a pod template label YAML reads as a boolean (logging: on)', yaml: CLONESET('').replace('labels: {app: web}', 'labels: {app: web, logging: on}') },
  { id: 'a pod template label quoted (logging: "on")', yaml: CLONESET('').replace('labels: {app: web}', 'labels: {app: web, logging: "on"}') },
  { id: 'YAML 1.1 booleans and octal where the schema wants them (paused: yes, partition: 010)', yaml: CLONESET('    paused: yes\n    partition: 010\n') },
  {
    id: 'an AdvancedCronJob whose BroadcastJob template has no restartPolicy',
    yaml: `apiVersion: apps.kruise.io/v1alpha1\nkind: AdvancedCronJob\nmetadata: {name: nightly, namespace: ${NAMESPACE}}\nspec:\n  schedule: "0 2 * * *"\n  template:\n    broadcastJobTemplate:\n      spec:\n        template:\n          spec:\n            containers: [{name: clean, image: "busybox:1.36"}]\n`,
    stricter: 'the cluster admits the AdvancedCronJob and refuses every BroadcastJob it creates: the message says so',
  },
];

/** What the API server and the webhooks say of a create (dry run unless `persist`), strict field validation as kubectl sends it. */
async function create(m: Manifest, persist = false): Promise<{ allowed: boolean; message?: string }> {
  const res = await kube.request('POST', `${await kube.pathOf(m, '')}?${persist ? '' : 'dryRun=All&'}fieldValidation=Strict`, m);
  return { allowed: res.status < 300, message: res.status < 300 ? undefined : (res.body?.message ?? String(res.body)) };
}

test('each case: the check\'s verdict is the cluster\'s', async () => {
  const target = checkTarget(undefined, undefined);
  const rows: string[] = [];
  for (const c of CASES) {
    const docs = parseDocuments(c.yaml, c.id);
    const report = runCheck({ documents: docs, target });
    const ours = report.refused === 0;
    const theirs = await create(docs[0].json);
    const agree = ours === theirs.allowed || (c.stricter !== undefined && !ours && theirs.allowed);
    rows.push(`${agree ? 'agree' : 'DISAGREE'}: ${c.id}: check ${ours ? 'admits' : `refuses (${report.documents[0].errors[0]})`}; cluster ${theirs.allowed ? 'admits' : `refuses (${theirs.message})`}`);
  }
  // eslint-disable-next-line no-console
  console.log(rows.join('\n'));
  expect(rows.filter(r => r.startsWith('DISAGREE'))).toEqual([]);
});

test('two SidecarSets injecting one container into the same pods: the check refuses the pair, the webhook the second applied', async () => {
  const sidecarSet = (name: string) => `apiVersion: apps.kruise.io/v1beta1\nkind: SidecarSet\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: check-pair}}\n  containers: [{name: logtail, image: "${name}:1"}]\n`;
  const docs = parseDocuments(`${sidecarSet('check-logs-a')}---\n${sidecarSet('check-logs-b')}`, 'pair.yaml');
  const report = runCheck({ documents: docs, target: checkTarget(undefined, undefined) });
  expect(report.refused).toBe(1);
  expect(await create(docs[0].json, true)).toEqual({ allowed: true, message: undefined });
  const second = await create(docs[1].json);
  expect(second.allowed).toBe(false);
  expect(second.message).toContain('logtail');
});
