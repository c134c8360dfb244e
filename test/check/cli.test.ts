import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { load as loadYaml } from 'js-yaml';
import { cloneSetProblems } from '../../src/admission/clone-set';
import { main } from '../../src/cli';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { gateDefaults, parseRelease } from '../../src/releases/registry';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-check-'));
const write = (dir: string, name: string, text: string) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};
const run = (argv: string[], stdin?: string) => {
  let out = '';
  let err = '';
  const code = main(['check', ...argv], { out: t => (out += t), err: t => (err += t), stdin: stdin === undefined ? undefined : () => stdin });
  return { code, out, err };
};

const CLONESET = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
  updateStrategy:
    type: InPlaceIfPossible
`;
/** CLONESET as an object. */
const YAML_CLONESET = () => loadYaml(CLONESET) as Record<string, any>;
const sidecarSet = (name: string, container = 'logtail') => `apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata:
  name: ${name}
spec:
  selector:
    matchLabels: {app: web}
  containers:
  - name: ${container}
    image: ${name}:1
`;
/** A cluster's live state (`kubectl get ... -o json`) holding its kruise-manager Deployment, of `image`, started with `args`. */
const liveManager = (image: string, args: string[] = []) => JSON.stringify({
  apiVersion: 'v1',
  kind: 'List',
  items: [{
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
    spec: { selector: { matchLabels: { app: 'm' } }, template: { metadata: { labels: { app: 'm' } }, spec: { containers: [{ name: 'manager', image, args }] } } },
  }],
});
const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: shop}\ndata: {a: b}\n';
const SUMMARY = (docs: number, files: number, judged: number, others: number, verdict: string, against = 'OpenKruise v1.9.1 and Kruise Rollouts v0.6.2') =>
  `checked ${docs} document${docs === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} against ${against}: ${judged} OpenKruise object${judged === 1 ? '' : 's'} judged, ${others} other document${others === 1 ? '' : 's'} passed by; ${verdict}\n`;

describe('cdk8s-kruise check', () => {
  test('admitted manifests: exit 0, other kinds counted and passed by', () => {
    const file = write(tmp(), 'ok.yaml', `${CLONESET}---\n${CONFIGMAP}`);
    expect(run([file])).toEqual({ code: 0, out: SUMMARY(2, 1, 1, 1, 'all admitted'), err: '' });
  });

  test('a refused document: exit 2, with the file, document, kind, name, field and fix', () => {
    const file = write(tmp(), 'bad.yaml', `${CONFIGMAP}---\n${CLONESET.replace('InPlaceIfPossible', 'OnDelete')}`);
    expect(run([file])).toEqual({
      code: 2,
      out: `CloneSet "web" (apps.kruise.io/v1alpha1; ${file}, document 2) spec.updateStrategy.type: "OnDelete" is not supported by the CloneSet webhook; use one of ReCreate, InPlaceIfPossible, InPlaceOnly\n${SUMMARY(2, 1, 1, 1, '1 document refused')}`,
      err: '',
    });
  });

  test('the app-wide checks across every document given: two SidecarSets injecting logtail into the same pods', () => {
    const dir = tmp();
    const a = write(dir, 'platform/a.yaml', sidecarSet('logs-a'));
    const b = write(dir, 'team/b.yml', sidecarSet('logs-b'));
    const r = run([dir]);
    expect(r.code).toBe(2);
    expect(r.out).toBe(`SidecarSet "logs-a" (apps.kruise.io/v1beta1; ${a}, document 1) spec: "logs-b" is another SidecarSet (${b}, document 1) whose selectors and namespaces can match the same pods, and both inject the container "logtail"; OpenKruise refuses the second one applied; rename, or make the selectors or namespaceSelectors disjoint\n${SUMMARY(2, 2, 2, 0, '1 document refused')}`);
  });

  test('folders are read recursively, in name order; - reads standard input', () => {
    const dir = tmp();
    write(dir, 'b/x.yaml', CONFIGMAP);
    write(dir, 'a/deep/y.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }] }));
    write(dir, 'a/notes.txt', 'not a manifest');
    expect(run([dir]).out).toBe(SUMMARY(2, 2, 0, 2, 'all admitted'));
    expect(run(['-'], CLONESET)).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted'), err: '' });
    const piped = run(['-'], CLONESET.replace('nginx:1.27', '" nginx"'));
    expect(piped.code).toBe(2);
    expect(piped.out).toContain('CloneSet "web" (apps.kruise.io/v1alpha1; (stdin), document 1) spec.template.spec.containers[0].image');
  });

  test('YAML that does not parse: exit 1 with the file and line', () => {
    const file = write(tmp(), 'broken.yaml', `${CONFIGMAP}---\nkind: CloneSet\nmetadata:\n  name: [web\n`);
    expect(run([file])).toEqual({ code: 1, out: '', err: `cdk8s-kruise check: ${file}:9: not valid YAML (deficient indentation); fix the file\n` });
  });

  test('a document that is not an object, or has no kind: exit 1 with the file and document', () => {
    const dir = tmp();
    const list = write(dir, 'list.yaml', `${CONFIGMAP}---\n- a\n- b\n`);
    expect(run([list]).err).toBe(`cdk8s-kruise check: ${list}, document 2: a list is not a Kubernetes object; give manifests (apiVersion, kind, metadata, ...)\n`);
    const kindless = write(dir, 'kindless.yaml', 'apiVersion: v1\nmetadata: {name: x}\n');
    expect(run([kindless]).err).toBe(`cdk8s-kruise check: ${kindless}, document 1: an object without kind ({"apiVersion":"v1","metadata":{"name":"x"}}), which kubectl refuses to send; give both as strings\n`);
    expect(run([path.join(dir, 'missing.yaml')]).err).toBe(`cdk8s-kruise check: ${path.join(dir, 'missing.yaml')}: no such file or folder\n`);
  });

  test('JSON and JUnit output', () => {
    const file = write(tmp(), 'mixed.yaml', `${CLONESET}---\n${CLONESET.replace('name: web', 'name: old').replace('InPlaceIfPossible', 'OnDelete')}`);
    const json = JSON.parse(run(['--output', 'json', file]).out);
    expect(json).toMatchObject({ target: { openKruise: 'v1.9.1', rollouts: 'v0.6.2' }, files: 1, documents: 2, judged: 2, refused: 1 });
    expect(json.results.map((r: any) => [r.name, r.admitted])).toEqual([['web', true], ['old', false]]);
    const junit = run(['--output', 'junit', file]);
    expect(junit.code).toBe(2);
    expect(junit.out).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="cdk8s-kruise check" tests="2" failures="1">',
      `  <testsuite name="${file}" tests="2" failures="1">`,
      `    <testcase classname="${file}" name="CloneSet shop/web (document 1)"/>`,
      `    <testcase classname="${file}" name="CloneSet shop/old (document 2)"><failure message="CloneSet &quot;old&quot; (apps.kruise.io/v1alpha1; ${file}, document 2) spec.updateStrategy.type: &quot;OnDelete&quot; is not supported by the CloneSet webhook; use one of ReCreate, InPlaceIfPossible, InPlaceOnly" type="refused">CloneSet &quot;old&quot; (apps.kruise.io/v1alpha1; ${file}, document 2) spec.updateStrategy.type: &quot;OnDelete&quot; is not supported by the CloneSet webhook; use one of ReCreate, InPlaceIfPossible, InPlaceOnly</failure></testcase>`,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'));
  });

  test('--openkruise and --rollouts take every modelled release, as a line or a release, and list them otherwise', () => {
    const file = write(tmp(), 'ok.yaml', CLONESET);
    for (const [v, shown] of [['1.7', 'v1.7.4'], ['1.8', 'v1.8.4'], ['1.8.2', 'v1.8.2'], ['v1.8.2', 'v1.8.2'], ['1.9', 'v1.9.1'], ['v1.9.0', 'v1.9.0'], ['1.9.1', 'v1.9.1']]) {
      expect(run(['--openkruise', v, '--rollouts', 'v0.5.3', file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted', `OpenKruise ${shown} and Kruise Rollouts v0.5.3`), err: '' });
    }
    // the same lines as plan and fleet give for a version that is not modelled
    expect(run(['--openkruise', '1.6', file])).toEqual({
      code: 1,
      out: '',
      err: 'cdk8s-kruise check: --openkruise: OpenKruise 1.6 is not a line this library models; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)\n',
    });
    expect(run(['--rollouts', '0.4', file]).err).toBe(
      'cdk8s-kruise check: --rollouts: Kruise Rollouts 0.4 is not a line this library models; give one of 0.5 (0.5.0 to 0.5.5) or 0.6 (0.6.0 to 0.6.2) (a line stands for its newest release)\n');
    expect(run(['--openkruise', '1.9.2', file]).err).toBe(
      'cdk8s-kruise check: --openkruise: OpenKruise 1.9.2 is not a release of the 1.9 line, whose releases are 1.9.0, 1.9.1; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)\n');
    expect(run(['--openkruise', '1.7.5', file]).err).toBe('cdk8s-kruise check: --openkruise: OpenKruise 1.7.5 is not 1.7 code: its tag is the commit of 1.8.3 (the 1.7 line ends at 1.7.4), so give 1.8.3 for a manager built from it; '
      + 'give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)\n');
    expect(run(['--openkruise', 'latest', file]).code).toBe(1);
  });

  test('--feature-gates: the rules follow them, and an object needing a gate that is off is refused', () => {
    const dir = tmp();
    const file = write(dir, 'spread.yaml', `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata: {name: web, namespace: shop}
spec:
  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}
  subsets: [{name: a, maxReplicas: 1}, {name: b}]
`);
    expect(run([file]).code).toBe(0);
    expect(run(['--feature-gates', 'WorkloadSpread=false', file])).toEqual({
      code: 2,
      out: `WorkloadSpread "web" (apps.kruise.io/v1alpha1; ${file}, document 1) kind: "WorkloadSpread" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane of --feature-gates 'WorkloadSpread=false' (the webhook refuses every WorkloadSpread then); turn WorkloadSpread on in kruise-manager's --feature-gates (and here), or stop using the kind\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`,
      err: '',
    });
    expect(run(['--feature-gates', 'workloadspread=false', file]).err).toBe("cdk8s-kruise check: --feature-gates workloadspread: false is not an OpenKruise v1.9.1 feature gate (did you mean 'WorkloadSpread'?); use one of "
      + `${Object.keys(GATE_DEFAULTS).sort().join(', ')}\n`);
    expect(run(['--feature-gates', 'WorkloadSpread', file]).err).toBe("cdk8s-kruise check: --feature-gates: 'WorkloadSpread' is not Gate=true or Gate=false (as kruise-manager's --feature-gates takes them)\n");
  });

  test('--live: the cluster\'s objects are context, never judged, and the documents are checked against them', () => {
    const dir = tmp();
    const live = write(dir, 'live.json', JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'platform-logs', resourceVersion: '12', uid: 'x' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logtail', image: 'p:1' }] }, status: { matchedPods: 3 } },
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'broken' }, spec: { updateStrategy: { type: 'OnDelete' } } },
      ],
    }));
    const mine = write(dir, 'mine.yaml', sidecarSet('team-logs'));
    const r = run(['--live', live, mine]);
    expect(r.code).toBe(2);
    expect(r.out).toBe(`SidecarSet "team-logs" (apps.kruise.io/v1beta1; ${mine}, document 1) spec: "platform-logs" is another SidecarSet (live: ${live}) whose selectors and namespaces can match the same pods, and both inject the container "logtail"; OpenKruise refuses the second one applied; rename, or make the selectors or namespaceSelectors disjoint\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
  });

  test('--live holding the object a document changes: the document is an update of it, and the webhook\'s update rules apply', () => {
    const dir = tmp();
    const stored = { ...YAML_CLONESET(), metadata: { name: 'web', namespace: 'shop', resourceVersion: '41', uid: 'u' }, status: { replicas: 2 } };
    const live = write(dir, 'live.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [stored] }));
    const scaled = write(dir, 'scaled.yaml', CLONESET.replace('  replicas: 2\n', '  replicas: 5\n'));
    expect(run(['--live', live, scaled]).code).toBe(0);
    const reselected = write(dir, 'reselected.yaml', CLONESET.split('{app: web}').join('{app: web, tier: front}'));
    const r = run(['--live', live, reselected]);
    expect(r.code).toBe(2);
    expect(r.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${reselected}, document 1) spec.selector: {"matchLabels":{"app":"web","tier":"front"}} cannot change on an update `
      + 'of a CloneSet (it was {"matchLabels":{"app":"web"}}): the webhook lets an update change only replicas, template, lifecycle, scaleStrategy, updateStrategy, '
      + `minReadySeconds, progressDeadlineSeconds, volumeClaimTemplates and revisionHistoryLimit; keep the old value, or delete the CloneSet and create it again\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
    // without the live object it is a create, which the cluster admits
    expect(run([reselected]).code).toBe(0);
  });

  test('--live with the cluster\'s kruise-manager: its --feature-gates count', () => {
    const dir = tmp();
    const live = write(dir, 'live.json', liveManager('kruise:1.9', ['--feature-gates=ResourceDistributionGate=false']));
    const rd = write(dir, 'rd.yaml', 'apiVersion: apps.kruise.io/v1alpha1\nkind: ResourceDistribution\nmetadata: {name: shared}\nspec:\n  resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}\n  targets: {allNamespaces: true}\n');
    expect(run(['--live', live, rd]).out).toBe(`ResourceDistribution "shared" (apps.kruise.io/v1alpha1; ${rd}, document 1) kind: "ResourceDistribution" needs the OpenKruise feature gate ResourceDistributionGate, which is off in the control plane of the kruise-manager in --live (--feature-gates=ResourceDistributionGate=false) (the webhook refuses every ResourceDistribution then); turn ResourceDistributionGate on in kruise-manager's --feature-gates (and here), or stop using the kind\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
    expect(run(['--feature-gates', 'ResourceDistributionGate=true', '--live', live, rd]).code).toBe(0);
  });

  test('usage: no path, an unknown output, --help', () => {
    expect(run([]).err).toBe('cdk8s-kruise check: say what to check: PATH... (files or folders), or - for standard input (cdk8s-kruise check --help)\n');
    expect(run(['--output', 'xml', 'x']).err).toBe("cdk8s-kruise check: --output 'xml' is not text, json or junit\n");
    expect(run(['--help']).out).toMatch(/^usage: cdk8s-kruise check \[--openkruise V\]/);
  });
});

describe('manifests written by others', () => {
  const check = (text: string) => {
    const file = write(tmp(), 'm.yaml', text);
    return { file, ...run([file]) };
  };

  test('metadata.namespace on a cluster-scoped kind is accepted, with a warning (the API server clears it)', () => {
    const r = check(sidecarSet('logs').replace('  name: logs\n', '  name: logs\n  namespace: default\n'));
    expect(r.code).toBe(0);
    expect(r.out).toBe(`warning: SidecarSet "logs" (apps.kruise.io/v1beta1; ${r.file}, document 1) metadata.namespace: "default" is ignored: SidecarSet is cluster-scoped, so the API server clears the namespace before any webhook sees it; remove metadata.namespace (spec.namespaceSelector chooses the namespaces of the pods)\n${SUMMARY(1, 1, 1, 0, 'all admitted')}`);
  });

  test('an AdvancedCronJob whose BroadcastJob pod template leaves out restartPolicy: the cluster admits it, then refuses every BroadcastJob', () => {
    const r = check(`apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: nightly, namespace: ops}
spec:
  schedule: "0 2 * * *"
  template:
    broadcastJobTemplate:
      spec:
        template:
          spec:
            containers: [{name: clean, image: "busybox:1.36"}]
`);
    expect(r.code).toBe(2);
    expect(r.out).toContain(`AdvancedCronJob "nightly" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.template.broadcastJobTemplate.spec.template.spec.restartPolicy: "Always" is not allowed for the pods of a BroadcastJob, which run to completion: `
      + 'the cluster admits the AdvancedCronJob, then refuses every BroadcastJob it creates from this template when the schedule fires, so none ever runs; set restartPolicy to Never or OnFailure (it defaults to Always)\n');
  });

  test('a SidecarSet patchPodMetadata is judged against the whitelist of a kruise-configuration ConfigMap among the documents', () => {
    const patching = `apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: logs}
spec:
  selector: {matchLabels: {app: web}}
  containers: [{name: log, image: "fluent-bit:3.1"}]
  patchPodMetadata: [{annotations: {"example.com/team": "shop"}}]
`;
    const whitelist = (exprs: string[]) => `---
apiVersion: v1
kind: ConfigMap
metadata: {name: kruise-configuration, namespace: kruise-system}
data:
  SidecarSet_PatchPodMetadata_WhiteList: '${JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: exprs }] })}'
`;
    const alone = check(patching);
    expect(alone.code).toBe(2);
    expect(alone.out).toContain(`SidecarSet "logs" (apps.kruise.io/v1beta1; ${alone.file}, document 1) spec.patchPodMetadata: ["example.com/team"] is refused by the SidecarSet webhook: `);
    const allowed = check(patching + whitelist(['^example\\.com/']));
    expect(allowed.out).toBe(SUMMARY(2, 1, 1, 1, 'all admitted'));
    const other = check(patching + whitelist(['^team\\.io/']));
    expect(other.out).toContain(`spec.patchPodMetadata[0].annotations["example.com/team"]: "example.com/team" is not allowed by SidecarSet_PatchPodMetadata_WhiteList of ConfigMap kruise-system/kruise-configuration (${other.file}, document 2): `);
  });

  test('a metadata.name that is not a string is named by the field, never "[object Object]"', () => {
    const r = check(CLONESET.replace('  name: web\n', '  name: {first: web}\n'));
    expect(r.out).toBe(`CloneSet (apps.kruise.io/v1alpha1; ${r.file}, document 1) metadata.name: {"first":"web"} is not a string, so the API server cannot decode the object's metadata; give a string\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
  });

  test('a key with a newline keeps the message on one line', () => {
    const r = check(CLONESET.replace('  replicas: 2\n', '  replicas: 2\n  "max\\nSurge": 1\n'));
    expect(r.out.split('\n')[0]).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.max\\nSurge: 1 is not a field of spec; remove it, or use one of the fields known here: ${r.out.split('use one of the fields known here: ')[1].split('\n')[0]}`);
    expect(r.out.split('\n')).toHaveLength(3);
  });

  test('a null rollingUpdate: is named as an unknown field (the API server refuses an unknown field whatever its value)', () => {
    const r = check(CLONESET.replace('    type: InPlaceIfPossible\n', '    type: InPlaceIfPossible\n    rollingUpdate:\n'));
    expect(r.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.updateStrategy.rollingUpdate: null is not a field of spec.updateStrategy; remove it, or use one of the fields known here: inPlaceUpdateStrategy, maxSurge, maxUnavailable, partition, paused, priorityStrategy, scatterStrategy, type\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
  });

  test('two manifests concatenated without ---: one document, the last copy of each key, as kubectl applies it; a warning says so', () => {
    // kubectl v1.37 apply (strict field validation) reads the same text as one object, the second manifest's (the cluster tier's releases judge)
    const r = check(CLONESET + CLONESET.replace('  name: web\n', '  name: api\n'));
    expect(r.code).toBe(0);
    expect(r.out).toBe(`warning: CloneSet "api" (apps.kruise.io/v1alpha1; ${r.file}, document 1) apiVersion: "apps.kruise.io/v1alpha1" is written again at line 19 (first at line 1), `
      + 'and so are kind, metadata and spec: two manifests without a --- line between them are one document, and kubectl keeps the last copy of each key, '
      + `so it applies one object, CloneSet "api"; put a line --- between the manifests\n${SUMMARY(1, 1, 1, 0, 'all admitted')}`);
  });

  test('a value of the wrong type where the warnings read one (partition: null) is taken out as the API server does: no crash, admitted', () => {
    const r = check(CLONESET.replace('    type: InPlaceIfPossible\n', '    type: InPlaceIfPossible\n    partition: null\n'));
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${SUMMARY(1, 1, 1, 0, 'all admitted')}`);
  });

  test('a key written twice in one mapping: the last copy counts, as for kubectl, with a warning naming both lines', () => {
    const r = check(CLONESET.replace('  replicas: 2\n', '  replicas: 2\n  replicas: 3\n'));
    expect(r.code).toBe(0);
    expect(r.out).toBe(`warning: CloneSet "web" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.replicas: 3 is written twice in one mapping (lines 7 and 8), `
      + `and kubectl keeps only the last; remove the other copies\n${SUMMARY(1, 1, 1, 0, 'all admitted')}`);
  });

  test('the API server\'s metadata checks: a label key it refuses, a label that does not decode', () => {
    const bad = check(CLONESET.replace('  namespace: shop\n', '  namespace: shop\n  labels: {"-app": web}\n'));
    expect(bad.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${bad.file}, document 1) metadata.labels["-app"]: "-app" key name part must consist of letters, digits, '-', '_' or '.', `
      + `starting and ending with a letter or digit; use a qualified key and a valid label value\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
    const number = check(CLONESET.replace('  namespace: shop\n', '  namespace: shop\n  labels: {tier: 1}\n'));
    expect(number.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${number.file}, document 1) metadata.labels["tier"]: 1 is not a string, `
      + `so the API server cannot decode the object's metadata; quote it\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
  });

  test('null in a field the schema declares is taken out, as the API server does; a null where a value is needed is still refused', () => {
    expect(check(CLONESET.replace('  replicas: 2\n', '  replicas: null\n  minReadySeconds: ~\n')).code).toBe(0);
    const r = check(CLONESET.replace('  replicas: 2\n', '  selector: null\n').replace('  selector:\n    matchLabels: {app: web}\n', ''));
    expect(r.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.selector: (unset) is required; set selector\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
  });

  test('an object without a selector gets "is required", and no line about labels not matching it', () => {
    const r = check(CLONESET.replace('  selector:\n    matchLabels: {app: web}\n', ''));
    expect(r.out).toBe(`CloneSet "web" (apps.kruise.io/v1alpha1; ${r.file}, document 1) spec.selector: (unset) is required; set selector\n${SUMMARY(1, 1, 1, 0, '1 document refused')}`);
    // the rules alone (as a UnitedDeployment's cloneSetTemplate runs them): one line, not a second about the labels
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
    const found = cloneSetProblems({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web' }, spec: { template } });
    expect(found.filter(p => p.field.startsWith('spec.selector') || p.field === 'spec.template.metadata.labels').map(p => `${p.field}: ${p.problem}`)).toEqual(['spec.selector: is required']);
  });
});

describe('the release the cluster runs (--openkruise, --rollouts, --live)', () => {
  const PROGRESS_DEADLINE = CLONESET.replace('  replicas: 2\n', '  replicas: 2\n  progressDeadlineSeconds: 600\n');
  const ON_18 = 'OpenKruise v1.8.4 and Kruise Rollouts v0.6.2';

  test('a field served from 1.9 is refused on 1.8, naming the release and where it was given; the default admits it', () => {
    const file = write(tmp(), 'web.yaml', PROGRESS_DEADLINE);
    expect(run(['--openkruise', '1.8', file])).toEqual({
      code: 2,
      out: `CloneSet "web" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.progressDeadlineSeconds: 600 is served from OpenKruise 1.9; the target is 1.8 (given with --openkruise); `
        + `remove it, or upgrade the cluster to OpenKruise 1.9 and declare that release\n${SUMMARY(1, 1, 1, 0, '1 document refused', ON_18)}`,
      err: '',
    });
    expect(run([file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted'), err: '' });
    expect(run(['--openkruise', '1.9', file]).code).toBe(0);
  });

  test('a SidecarSet of v1beta1 (served from 1.9) has no match on 1.8; one of v1alpha1 is admitted there', () => {
    const dir = tmp();
    const beta = write(dir, 'beta.yaml', sidecarSet('logs'));
    const alpha = write(dir, 'alpha.yaml', sidecarSet('logs').replace('apps.kruise.io/v1beta1', 'apps.kruise.io/v1alpha1'));
    expect(run(['--openkruise', 'v1.8.2', beta])).toEqual({
      code: 2,
      out: `SidecarSet "logs" (apps.kruise.io/v1beta1; ${beta}, document 1) apiVersion: "apps.kruise.io/v1beta1" is served from OpenKruise 1.9; the target is 1.8.2 (given with --openkruise); `
        + `use apps.kruise.io/v1alpha1 (the L1 class KubeSidecarSetV1Alpha1)\n${SUMMARY(1, 1, 1, 0, '1 document refused', 'OpenKruise v1.8.2 and Kruise Rollouts v0.6.2')}`,
      err: '',
    });
    expect(run(['--openkruise', 'v1.8.2', alpha])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted', 'OpenKruise v1.8.2 and Kruise Rollouts v0.6.2'), err: '' });
    expect(run(['--openkruise', '1.7', alpha]).code).toBe(0);
    expect(run([beta])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted'), err: '' });
  });

  test('the webhook rules of the release: a percentage ImagePullJob parallelism, refused from 1.9, is admitted on 1.8', () => {
    const file = write(tmp(), 'pull.yaml', 'apiVersion: apps.kruise.io/v1alpha1\nkind: ImagePullJob\nmetadata: {name: pull, namespace: shop}\nspec:\n  image: nginx:1.27\n  parallelism: 50%\n');
    expect(run([file])).toEqual({
      code: 2,
      out: `ImagePullJob "pull" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.parallelism: "50%" is a percentage, which an ImagePullJob does not support; use a number of nodes, e.g. 10\n`
        + SUMMARY(1, 1, 1, 0, '1 document refused'),
      err: '',
    });
    expect(run(['--openkruise', '1.8', file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted', ON_18), err: '' });
  });

  test('Kruise Rollouts 0.5 serves no blue-green strategy', () => {
    const file = write(tmp(), 'rollout.yaml', [
      'apiVersion: rollouts.kruise.io/v1beta1',
      'kind: Rollout',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
      '  strategy:',
      '    blueGreen:',
      '      steps: [{replicas: 50%}, {replicas: 100%}]',
      '',
    ].join('\n'));
    expect(run([file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted'), err: '' });
    expect(run(['--rollouts', '0.5', file])).toEqual({
      code: 2,
      out: `Rollout "web" (rollouts.kruise.io/v1beta1; ${file}, document 1) spec.strategy.blueGreen: {"steps":[{"replicas":"50%"},{"replicas":"100%"}]} is served from Kruise Rollouts 0.6; `
        + 'the target is 0.5 (given with --rollouts); remove it, or upgrade the cluster to Kruise Rollouts 0.6 and declare that release\n'
        + SUMMARY(1, 1, 1, 0, '1 document refused', 'OpenKruise v1.9.1 and Kruise Rollouts v0.5.5'),
      err: '',
    });
  });

  test('a field the release keeps but ignores (in a SidecarSet container) is a warning, not a refusal', () => {
    const file = write(tmp(), 'logs.yaml', sidecarSet('logs').replace('apps.kruise.io/v1beta1', 'apps.kruise.io/v1alpha1')
      + '    resourcesPolicy: {targetContainersNameRegex: ".*", targetContainersMode: sum, resourcesExpr: {limits: {cpu: cpu*0.1}}}\n');
    expect(run(['--openkruise', '1.8', file])).toEqual({
      code: 0,
      out: `warning: SidecarSet "logs" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.containers[0].resourcesPolicy: `
        + '{"targetContainersNameRegex":".*","targetContainersMode":"sum","resourcesExpr":{"limits":{"cpu":"cpu*0.1"}}} is accepted and ignored by OpenKruise 1.8, '
        + 'which keeps it but has no such field (it is served from OpenKruise 1.9); the target is 1.8 (given with --openkruise); '
        + `remove it, or keep it for when the cluster runs OpenKruise 1.9 (it takes effect then)\n${SUMMARY(1, 1, 1, 0, 'all admitted', ON_18)}`,
      err: '',
    });
    expect(run([file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted'), err: '' });
  });

  test('a kind whose CRD the line\'s chart does not install is refused there, unless the documents or --live hold the CRD', () => {
    const job = 'apiVersion: apps.kruise.io/v1alpha1\nkind: EphemeralJob\nmetadata: {name: debug, namespace: shop}\n'
      + 'spec:\n  selector: {matchLabels: {app: web}}\n  replicas: 1\n  template:\n    ephemeralContainers:\n'
      + '    - {name: debugger, image: "busybox:1.36", imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n';
    const dir = tmp();
    const file = write(dir, 'debug.yaml', job);
    expect(run(['--openkruise', '1.8', file])).toEqual({
      code: 2,
      out: `EphemeralJob "debug" (apps.kruise.io/v1alpha1; ${file}, document 1) kind: "EphemeralJob" has no resource in a cluster of OpenKruise 1.8: `
        + 'its chart does not install the CRD ephemeraljobs.apps.kruise.io, so the API server answers "no matches for kind EphemeralJob in version apps.kruise.io/v1alpha1"; '
        + 'the target is 1.8 (given with --openkruise); install the CRD (config/crd/bases/apps.kruise.io_ephemeraljobs.yaml of the release\'s sources) and pass it '
        + 'with the documents or with --live (kubectl get crd ephemeraljobs.apps.kruise.io -o json), or upgrade the cluster to OpenKruise 1.9 and declare that release\n'
        + SUMMARY(1, 1, 1, 0, '1 document refused', ON_18),
      err: '',
    });
    expect(run([file]).code).toBe(0);
    // the cluster has the CRD: kubectl get crd -o json (a List), or the CRD among the documents
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ephemeraljobs.apps.kruise.io' } };
    const live = write(dir, 'crds.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [crd] }));
    expect(run(['--openkruise', '1.8', '--live', live, file])).toEqual({ code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted', ON_18), err: '' });
    const withCrd = write(dir, 'with-crd.yaml', `${JSON.stringify(crd)}\n---\n${job}`);
    expect(run(['--openkruise', '1.7', withCrd])).toEqual({ code: 0, out: SUMMARY(2, 1, 1, 1, 'all admitted', 'OpenKruise v1.7.4 and Kruise Rollouts v0.6.2'), err: '' });
  });

  test('--feature-gates are read as the release has them', () => {
    const file = write(tmp(), 'web.yaml', CLONESET);
    expect(run(['--openkruise', '1.8', '--feature-gates', 'InPlacePodVerticalScaling=true', file]).err).toBe(
      'cdk8s-kruise check: --feature-gates InPlacePodVerticalScaling: true is not an OpenKruise v1.8.4 feature gate (a gate of 1.9, which kruise-manager v1.8.4 refuses to start with); '
      + `use one of ${Object.keys(gateDefaults(parseRelease('openkruise', '1.8', 'test'))).sort().join(', ')}\n`);
    expect(run(['--feature-gates', 'InPlacePodVerticalScaling=true', file]).code).toBe(0);
  });

  test('--live: the release the cluster\'s kruise-manager runs, by its image tag, unless a flag gives another', () => {
    const dir = tmp();
    const live = write(dir, 'live.json', liveManager('openkruise/kruise-manager:v1.8.2'));
    const file = write(dir, 'web.yaml', PROGRESS_DEADLINE);
    const ON_182 = 'OpenKruise v1.8.2 and Kruise Rollouts v0.6.2';
    expect(run(['--live', live, file])).toEqual({
      code: 2,
      out: `CloneSet "web" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.progressDeadlineSeconds: 600 is served from OpenKruise 1.9; `
        + `the target is 1.8.2 (given with --live: the kruise-manager in ${live} runs image 'openkruise/kruise-manager:v1.8.2'); `
        + `remove it, or upgrade the cluster to OpenKruise 1.9 and declare that release\n${SUMMARY(1, 1, 1, 0, '1 document refused', ON_182)}`,
      err: '',
    });
    // the line given agrees with the release the manager runs, which is then the target
    expect(run(['--openkruise', '1.8', '--live', live, file]).out).toBe(
      `CloneSet "web" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.progressDeadlineSeconds: 600 is served from OpenKruise 1.9; the target is 1.8.2 (given with --openkruise); `
      + `remove it, or upgrade the cluster to OpenKruise 1.9 and declare that release\n${SUMMARY(1, 1, 1, 0, '1 document refused', ON_182)}`);
    expect(run(['--openkruise', '1.9', '--live', live, file])).toEqual({
      code: 1,
      out: '',
      err: `cdk8s-kruise check: --openkruise 1.9 disagrees with --live: the kruise-manager in ${live} runs image 'openkruise/kruise-manager:v1.8.2' (OpenKruise 1.8.2); `
        + 'a check judges by one OpenKruise release: give the one the cluster runs, or leave --openkruise out\n',
    });
  });
});

describe('the cluster\'s Kubernetes (--kubernetes, --kubernetes-vendor, a /version in --live)', () => {
  /** What `kubectl get --raw /version` prints on an EKS cluster of 1.37 (the real node's API server answers so). */
  const EKS_VERSION = JSON.stringify({ major: '1', minor: '37+', gitVersion: 'v1.37.2-eks-0000000', gitCommit: '0000000', gitTreeState: 'clean', platform: 'linux/amd64' });
  const PANIC = 'reads /version\'s minor as a number in every in-place update of a CloneSet, Advanced StatefulSet or Advanced DaemonSet and panics there, '
    + 'after marking the pod not ready (InPlaceUpdateReady false): the update never completes and the pod stays out of its Services, '
    + 'and an Advanced DaemonSet\'s update, run in a goroutine of its own, stops the whole kruise-manager and its webhooks (upstream issue #2404)';
  const ON_EKS = 'OpenKruise v1.9.0 and Kruise Rollouts v0.6.2 on Kubernetes v1.37.2-eks-0000000';

  test('OpenKruise 1.9.0 on an EKS gitVersion: each in-place workload refused, exit 2, and the target warned, naming 1.9.1', () => {
    const dir = tmp();
    const file = write(dir, 'web.yaml', `${CLONESET}---\n${sidecarSet('logtail')}`);
    expect(run(['--openkruise', '1.9.0', '--kubernetes', 'v1.37.2-eks-0000000', file])).toEqual({
      code: 2,
      out: ''
        + `CloneSet "web" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.updateStrategy.type: "InPlaceIfPossible" updates pods in place, which kruise-manager v1.9.0 on `
        + 'Kubernetes v1.37.2-eks-0000000 (/version minor "37+") cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
        + 'the target is 1.9.0 (given with --openkruise), on Kubernetes v1.37.2-eks-0000000 (given with --kubernetes); '
        + "upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it); until then, set spec.updateStrategy.type to ReCreate\n"
        + 'warning: the target: OpenKruise 1.9.0 (given with --openkruise) runs kruise-manager v1.9.0 on Kubernetes v1.37.2-eks-0000000 (/version minor "37+", given with --kubernetes), '
        + `which ${PANIC}; upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it)\n`
        + SUMMARY(2, 1, 2, 0, '1 document refused', ON_EKS),
      err: '',
    });
    // the same documents on 1.9.1, the default
    expect(run(['--kubernetes', 'v1.37.2-eks-0000000', file])).toEqual({
      code: 0, out: SUMMARY(2, 1, 2, 0, 'all admitted', 'OpenKruise v1.9.1 and Kruise Rollouts v0.6.2 on Kubernetes v1.37.2-eks-0000000'), err: '',
    });
  });

  test('documents with nothing that updates in place: admitted, exit 0, and the target warned (the cluster takes them, and they never meet the panic)', () => {
    const file = write(tmp(), 'policy.yaml', sidecarSet('logtail'));
    const r = run(['--openkruise', '1.9.0', '--kubernetes', 'v1.37.2-eks-0000000', file]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('warning: the target: OpenKruise 1.9.0 (given with --openkruise) runs kruise-manager v1.9.0 on Kubernetes v1.37.2-eks-0000000 '
      + `(/version minor "37+", given with --kubernetes), which ${PANIC}; upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it)`);
    expect(r.out.split('\n').slice(1)).toEqual([SUMMARY(1, 1, 1, 0, 'all admitted', ON_EKS).trimEnd(), '']);
  });

  test('--live reads a saved /version (kubectl get --raw /version): the same refusal; it and --kubernetes must be one cluster', () => {
    const dir = tmp();
    const version = write(dir, 'version.json', EKS_VERSION);
    const file = write(dir, 'web.yaml', CLONESET);
    const r = run(['--openkruise', '1.9.0', '--live', version, file]);
    expect(r.code).toBe(2);
    expect(r.out.split('\n')[1]).toBe('warning: the target: OpenKruise 1.9.0 (given with --openkruise) runs kruise-manager v1.9.0 on Kubernetes v1.37.2-eks-0000000 '
      + `(/version minor "37+", given with --live ${version}), which ${PANIC}; upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it)`);
    // the cluster's kruise-manager and /version, both in --live
    const manager = write(dir, 'live.json', liveManager('openkruise/kruise-manager:v1.9.0'));
    expect(run(['--live', manager, '--live', version, file]).out.split('\n')[1]).toBe(
      `warning: the target: OpenKruise 1.9.0 (given with --live: the kruise-manager in ${manager} runs image 'openkruise/kruise-manager:v1.9.0') runs kruise-manager v1.9.0 on `
      + `Kubernetes v1.37.2-eks-0000000 (/version minor "37+", given with --live ${version}), which ${PANIC}; `
      + "upgrade the cluster's OpenKruise to 1.9.1, then save its live state again (OpenKruise 1.9.1 fixes it)");
    expect(run(['--live', version, file])).toEqual({
      code: 0, out: SUMMARY(1, 1, 1, 0, 'all admitted', 'OpenKruise v1.9.1 and Kruise Rollouts v0.6.2 on Kubernetes v1.37.2-eks-0000000'), err: '',
    });
    expect(run(['--kubernetes', '1.36', '--live', version, file])).toEqual({
      code: 1,
      out: '',
      err: `cdk8s-kruise check: --live ${version}: the cluster's /version (Kubernetes v1.37.2-eks-0000000) disagrees with Kubernetes 1.36 (given with --kubernetes): `
        + 'a different minor; a check judges by one cluster: give the Kubernetes the cluster runs, or leave one out\n',
    });
  });

  test('--kubernetes-vendor: GKE says the minor has the suffix; AKS and a minor say nothing of it', () => {
    const file = write(tmp(), 'web.yaml', CLONESET);
    expect(run(['--openkruise', '1.9.0', '--kubernetes', '1.31', '--kubernetes-vendor', 'gke', file]).out.split('\n')[1]).toBe(
      'warning: the target: OpenKruise 1.9.0 (given with --openkruise) runs kruise-manager v1.9.0 on Kubernetes 1.31 (GKE) (/version minor "31+", given with --kubernetes and --kubernetes-vendor), '
      + `which ${PANIC}; upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it)`);
    expect(run(['--openkruise', '1.9.0', '--kubernetes', '1.31', '--kubernetes-vendor', 'aks', file]).code).toBe(0);
    expect(run(['--openkruise', '1.9.0', '--kubernetes', '1.31', file]).code).toBe(0);
  });

  test('a warning of the target: InPlaceWorkloadVerticalScaling on 1.8 from Kubernetes 1.32, in text, JSON and JUnit', () => {
    const file = write(tmp(), 'web.yaml', CLONESET);
    const args = ['--openkruise', '1.8', '--kubernetes', '1.33', '--feature-gates', 'InPlaceWorkloadVerticalScaling=true', file];
    const warning = 'the target: OpenKruise 1.8 (given with --openkruise) runs kruise-manager v1.8.4 on Kubernetes 1.33 (given with --kubernetes), which, '
      + 'with InPlaceWorkloadVerticalScaling on, changes cpu and memory in place by updating the pod, which Kubernetes refuses from 1.32 on '
      + '(resources change only through the pods/resize subresource there): every in-place update that changes them fails; '
      + "upgrade the cluster's OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (fixed from OpenKruise 1.9.0), "
      + 'or turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods)';
    expect(run(args)).toEqual({
      code: 0, out: `warning: ${warning}\n${SUMMARY(1, 1, 1, 0, 'all admitted', 'OpenKruise v1.8.4 and Kruise Rollouts v0.6.2 on Kubernetes 1.33')}`, err: '',
    });
    expect(JSON.parse(run([...args, '--output', 'json']).out).target).toEqual({
      openKruise: 'v1.8.4', rollouts: 'v0.6.2', kubernetes: '1.33', admitted: true, errors: [], warnings: [warning],
    });
    const junit = run([...args, '--output', 'junit']).out;
    expect(junit).toContain('<testsuites name="cdk8s-kruise check" tests="2" failures="0">\n  <testsuite name="target" tests="1" failures="0">\n'
      + '    <testcase classname="target" name="OpenKruise v1.8.4 and Kruise Rollouts v0.6.2 on Kubernetes 1.33"><system-out>warning: the target: ');
  });

  test('bad values: exit 1 with one line', () => {
    const file = write(tmp(), 'web.yaml', CLONESET);
    expect(run(['--kubernetes', 'latest', file]).err).toBe(
      "cdk8s-kruise check: --kubernetes: 'latest' is not a Kubernetes version; give /version's gitVersion (e.g. v1.31.4-eks-2d5f260, as `kubectl version` prints the server's) or a minor (1.31)\n");
    expect(run(['--kubernetes-vendor', 'openshift', file]).err).toBe("cdk8s-kruise check: --kubernetes-vendor: 'openshift' is not a vendor; give eks, gke, aks or other\n");
    expect(run(['--kubernetes', 'v1.31.4-eks-2d5f260', '--kubernetes-vendor', 'aks', file]).err).toBe(
      "cdk8s-kruise check: --kubernetes: 'v1.31.4-eks-2d5f260' is a gitVersion EKS reports, but the vendor declared is AKS; "
      + 'declare the vendor the cluster is (or leave it out: EKS and GKE are read from the gitVersion)\n');
    const bad = write(tmp(), 'version.json', JSON.stringify({ major: '1', minor: '30', gitVersion: 'v1.31.0' }));
    expect(run(['--live', bad, file]).err).toBe(
      `cdk8s-kruise check: --live ${bad}: major "1" and minor "30" do not match gitVersion "v1.31.0"; save it again with \`kubectl get --raw /version\`\n`);
  });
});
