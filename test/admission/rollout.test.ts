/**
 * The Rollout admission corpus through every entry path (a `rollouts` L1
 * object, a raw ApiObject, included YAML), and the rules that read the rest
 * of the App: one Rollout per workload, the workload's namespace, the
 * workload fields a release drives, the manager's gates and limits.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import { Warnings } from '../../src';
import { KruiseValidation } from '../../src/validation/register';
import { cases } from '../fixtures/admission/rollout';
import { describeCorpus } from '../util/admission';

describeCorpus('rollouts.kruise.io', 'Rollout', cases);

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const cloneSetRef = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' };
const rollout = (name: string, spec: Record<string, any> = {}, namespace = 'default') => ({
  apiVersion: 'rollouts.kruise.io/v1beta1',
  kind: 'Rollout',
  metadata: { name, namespace },
  spec: { workloadRef: { ...cloneSetRef }, strategy: { canary: { steps: [{ replicas: 1 }, { replicas: '100%' }] } }, ...spec },
});
const cloneSet = (namespace = 'default', updateStrategy?: Record<string, any>, more: Record<string, any> = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    ...(updateStrategy ? { updateStrategy } : {}),
    ...more,
  },
});

/** Raw objects in one chart: the synth error, or '' when admitted. */
function synthRaw(...objects: Array<Record<string, any>>): string {
  const app = Testing.app();
  const chart = new Chart(app, 'test');
  KruiseValidation.enable(chart);
  objects.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
  try {
    app.synth();
    return '';
  } catch (e: any) {
    return String(e.message);
  }
}

describe('Rollout rules that read the App', () => {
  test('a workload has one Rollout: both Rollouts name the other', () => {
    const error = synthRaw(rollout('web-a'), rollout('web-b', { workloadRef: { ...cloneSetRef, apiVersion: 'apps.kruise.io/v1beta1' } }));
    expect(error).toContain('[test/o0] Rollout "web-a" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is also released by Rollout "web-b" at \'test/o1\', and a workload can have one Rollout only; keep one Rollout per workload (merge their steps)');
    expect(error).toContain('[test/o1] Rollout "web-b" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"CloneSet","name":"web"} is also released by Rollout "web-a" at \'test/o0\'');
  });

  test('Rollouts of different workloads, or in different namespaces, are fine', () => {
    expect(synthRaw(rollout('web-a'), rollout('web-b', { workloadRef: { ...cloneSetRef, name: 'api' } }), rollout('web-c', {}, 'team-b'))).toBe('');
  });

  test('the Rollout must be in the namespace of its workload', () => {
    expect(synthRaw(rollout('web', {}, 'team-a'), cloneSet('team-b'))).toContain(
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) metadata.namespace: "team-a" differs from the namespace of CloneSet "web" at \'test/o1\' (team-b), and a Rollout only releases a workload of its own namespace; create the Rollout in the workload\'s namespace');
    expect(synthRaw(rollout('web', {}, 'team-a'), cloneSet('team-b'), cloneSet('team-a'))).toBe('');
  });

  test('a CloneSet under a Rollout must not set partition or paused: true', () => {
    const error = synthRaw(rollout('web'), cloneSet('default', { type: 'InPlaceIfPossible', partition: 3, paused: true }));
    expect(error).toContain('[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is CloneSet "web" at \'test/o1\', whose spec.updateStrategy.partition (3) the release drives: '
      + 'a re-apply during a release (GitOps sync, kubectl apply) resets the value the controller lowers batch by batch and releases every remaining pod at once; '
      + 'remove spec.updateStrategy.partition from the CloneSet (the Rollout\'s steps decide how many pods are updated)');
    expect(error).toContain('whose spec.updateStrategy.paused (true) the release drives: the controller sets it to false for each batch and a re-apply pauses the release again; remove spec.updateStrategy.paused from the CloneSet');
    expect(synthRaw(rollout('web'), cloneSet('default', { type: 'InPlaceIfPossible', paused: false, maxSurge: 1, maxUnavailable: '20%' }))).toBe('');
  });

  test('a blue-green CloneSet must also leave maxSurge, maxUnavailable and minReadySeconds alone', () => {
    const bg = { strategy: { blueGreen: { steps: [{ replicas: '100%', traffic: '0%' }, { replicas: '100%', traffic: '100%' }] } } };
    const error = synthRaw(rollout('web', bg), cloneSet('default', { maxSurge: '50%', maxUnavailable: 0 }, { minReadySeconds: 5 }));
    for (const f of ['spec.updateStrategy.maxSurge ("50%")', 'spec.updateStrategy.maxUnavailable (0)', 'spec.minReadySeconds (5)']) {
      expect(error).toContain(`whose ${f} the release drives: a blue-green release replaces it for the time of the release and restores it at the end, so a re-apply during the release breaks the blue-green switch`);
    }
  });

  test('an Advanced StatefulSet or DaemonSet under a Rollout must not set rollingUpdate.partition', () => {
    const asts = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
      },
    };
    const dbRollout = rollout('db', { workloadRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' } });
    expect(synthRaw(dbRollout, asts)).toContain('is StatefulSet "db" at \'test/o1\', whose spec.updateStrategy.rollingUpdate.partition (2) the release drives');
    const onDelete = { ...asts, spec: { ...asts.spec, updateStrategy: { type: 'OnDelete' } } };
    expect(synthRaw(dbRollout, onDelete)).toContain('[test/o0] Rollout "db" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"db"} is StatefulSet "db" at \'test/o1\', '
      + 'whose spec.updateStrategy.type is OnDelete, and the Kruise Rollouts webhook never intercepts an update of an OnDelete StatefulSet, so no release would ever start; use the RollingUpdate type (the default) for a StatefulSet under a Rollout');
  });
});

describe('Rollout warnings', () => {
  const warnings = (...objects: Array<Record<string, any>>) => {
    const chart = Testing.chart();
    KruiseValidation.enable(chart);
    objects.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
    Testing.synth(chart);
    return Warnings.of(chart);
  };

  test('what upstream accepts and ignores', () => {
    expect(warnings(rollout('web', {
      strategy: {
        canary: {
          enableExtraWorkloadForCanary: true,
          patchPodTemplateMetadata: { labels: { track: 'canary' } },
          disableGenerateCanaryService: true,
          steps: [{ replicas: 1, traffic: '10%' }, { replicas: '100%' }],
        },
      },
    }))).toEqual([
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.enableExtraWorkloadForCanary: true has no effect: the workload is apps.kruise.io/v1alpha1 CloneSet, not an apps/v1 Deployment, so Kruise Rollouts updates its pods in place in batches instead (no extra canary workload); remove the flag',
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.patchPodTemplateMetadata: {"labels":{"track":"canary"}} only applies to the extra canary Deployment of a canary-style Deployment release, so it has no effect here; remove it',
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.disableGenerateCanaryService: true only has an effect with customNetworkRefs, so the <service>-canary Service is still created; remove it',
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[0].traffic: "10%" shapes traffic, but nothing routes traffic (no trafficRoutings), so only the pods change; add a traffic routing (an Ingress, a Gateway API HTTPRoute or customNetworkRefs) or drop traffic and matches',
    ]);
  });

  test('batch-wise rollback is ignored with traffic routing or for a Deployment', () => {
    const annotated = (spec: Record<string, any>) => ({ ...rollout('web', spec), metadata: { name: 'web', namespace: 'default', annotations: { 'rollouts.kruise.io/rollback-in-batch': 'true' } } });
    expect(warnings(annotated({ strategy: { canary: { steps: [{ replicas: 1 }], trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] } } }))).toEqual([
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) metadata.annotations["rollouts.kruise.io/rollback-in-batch"]: "true" is ignored because the Rollout routes traffic: a rollback updates every pod at once; remove the annotation or the traffic routing',
    ]);
    expect(warnings(annotated({ workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } }))).toEqual([
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1beta1) metadata.annotations["rollouts.kruise.io/rollback-in-batch"]: "true" is ignored for Deployment (apps/v1): batch-wise rollback works for CloneSets and StatefulSets only; remove the annotation',
    ]);
    expect(warnings(annotated({}))).toEqual([]);
  });

  test('v1alpha1 fields the conversion drops', () => {
    expect(warnings({
      apiVersion: 'rollouts.kruise.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'default' },
      spec: { objectRef: { workloadRef: cloneSetRef }, rolloutID: 'r7', strategy: { canary: { disableGenerateCanaryService: false, steps: [{ replicas: 1 }] } } },
    })).toEqual([
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1alpha1) spec.rolloutID: "r7" is not kept: v1alpha1 Rollouts are stored as v1beta1 and the conversion drops it; set the workload\'s rollouts.kruise.io/rollout-id annotation and label instead, or write the Rollout as v1beta1',
      '[test/o0] Rollout "web" (rollouts.kruise.io/v1alpha1) spec.strategy.canary.disableGenerateCanaryService: false is not kept: the conversion to v1beta1 (the stored version) drops it; write the Rollout as rollouts.kruise.io/v1beta1',
    ]);
  });
});
