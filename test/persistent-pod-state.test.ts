import { ApiObject, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, CloneSet, PersistentPodState, PersistentPodStateRetention, Warnings, kruise } from '../src';
import { synthFails as fails } from './util/synth-fails';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthPps = (chart: any) => Testing.synth(chart).filter((m: any) => m.kind === 'PersistentPodState');
const db = (chart: any, namespace?: string) => new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db', namespace }, containers: [{ name: 'db', image: 'postgres:16.4' }] });

describe('PersistentPodState', () => {
  test('persistPodState() on an AdvancedStatefulSet targets it, in its namespace, rendering only what was set', () => {
    const chart = Testing.chart();
    const pps = db(chart, 'data').persistPodState({ requiredTopology: ['kubernetes.io/hostname'] });
    expect(pps.node.path).toBe('test/db/PodState');
    const [m] = synthPps(chart);
    expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(m.metadata.namespace).toBe('data');
    expect(m.spec).toEqual({
      targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' },
      requiredPersistentTopology: { nodeTopologyKeys: ['kubernetes.io/hostname'] },
    });
    expect(pps.targetRef).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' });
    expect(pps.resourceType).toBe('persistentpodstates');
    expect((pps.node.defaultChild as ApiObject).kind).toBe('PersistentPodState');
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    new PersistentPodState(chart, 'state', {
      metadata: { name: 'db-state', namespace: 'data', labels: { team: 'data' } },
      targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'legacy-db' },
      requiredTopology: ['topology.kubernetes.io/zone'],
      preferredTopology: [{ weight: 100, nodeTopologyKeys: ['kubernetes.io/hostname'] }, { weight: 10, nodeTopologyKeys: ['rack'] }],
      annotations: ['cni.example.com/ip'],
      retention: PersistentPodStateRetention.WHEN_DELETED,
    });
    const [m] = synthPps(chart);
    expect(m.metadata).toEqual({ name: 'db-state', namespace: 'data', labels: { team: 'data' } });
    expect(m.spec).toEqual({
      targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'legacy-db' },
      requiredPersistentTopology: { nodeTopologyKeys: ['topology.kubernetes.io/zone'] },
      preferredPersistentTopology: [
        { weight: 100, preference: { nodeTopologyKeys: ['kubernetes.io/hostname'] } },
        { weight: 10, preference: { nodeTopologyKeys: ['rack'] } },
      ],
      persistentPodAnnotations: [{ key: 'cni.example.com/ip' }],
      persistentPodStateRetentionPolicy: 'WhenDeleted',
    });
  });

  test('a kplus.StatefulSet of the app is a target too', () => {
    const chart = Testing.chart();
    const sts = new kplus.StatefulSet(chart, 'cache', { metadata: { name: 'cache' }, containers: [{ image: 'redis:7.4', portNumber: 6379 }] });
    new PersistentPodState(chart, 'state', { target: sts, preferredTopology: [{ weight: 50, nodeTopologyKeys: ['kubernetes.io/hostname'] }] });
    expect(synthPps(chart)[0].spec.targetRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache' });
  });

  // Section 14 of the v1.9.0 webhook rules, through the construct (rule 4 is update-only).
  describe('admission rules, through the construct', () => {
    test('rule 1: the targetRef names a workload', () => {
      fails(chart => new PersistentPodState(chart, 'state', { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: '' }, requiredTopology: ['kubernetes.io/hostname'] }),
        '[test/state] PersistentPodState "test-state-c8f1d157" (apps.kruise.io/v1alpha1) spec.targetRef.name: "" is required; give the name of the target StatefulSet');
    });

    test('rule 2: the target is a StatefulSet', () => {
      fails(chart => new PersistentPodState(chart, 'state', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, requiredTopology: ['kubernetes.io/hostname'] }),
        '[test/state] PersistentPodState "test-state-c8f1d157" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps/v1","kind":"Deployment"} is not a StatefulSet; OpenKruise refuses any other target unless the kruise-configuration '
        + 'ConfigMap lists it in PPS_Watch_Custom_Workload_WhiteList; target an Advanced StatefulSet (apps.kruise.io) or a StatefulSet (apps)');
    });

    test('rule 3: a required or preferred topology', () => {
      fails(chart => db(chart).persistPodState({ annotations: ['cni.example.com/ip'] }),
        '[test/db/PodState] PersistentPodState "test-db-podstate-c8059967" (apps.kruise.io/v1alpha1) spec.requiredPersistentTopology: (unset) and spec.preferredPersistentTopology are both unset, so no pod state is kept; '
        + 'name the node labels to keep, e.g. requiredPersistentTopology.nodeTopologyKeys: ["kubernetes.io/hostname"]');
    });

    test('rule 5: one PersistentPodState per workload, whichever way the second was written', () => {
      fails(chart => {
        const w = db(chart);
        w.persistPodState({ requiredTopology: ['kubernetes.io/hostname'] });
        new kruise.KubePersistentPodState(chart, 'second', {
          metadata: { name: 'second' },
          spec: { targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' }, requiredPersistentTopology: { nodeTopologyKeys: ['rack'] } },
        });
      }, '[test/db/PodState] PersistentPodState "test-db-podstate-c8059967" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"db"} is also the target of PersistentPodState '
        + '"second" at \'test/second\', which OpenKruise refuses; keep one PersistentPodState per workload');
    });

    test('rule 5: of two objects of the app, the first in path order reports (as every app-wide check)', () => {
      const error = fails(chart => {
        const w = db(chart);
        w.persistPodState({ requiredTopology: ['kubernetes.io/hostname'] });
        new PersistentPodState(chart, 'zz', { target: w, requiredTopology: ['rack'] });
      }, '[test/db/PodState] PersistentPodState "test-db-podstate-c8059967" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"db"} is also the target of PersistentPodState '
        + '"test-zz-c80ba67b" at \'test/zz\'');
      expect(error).not.toContain('[test/zz]');
    });
  });

  describe('errors of the construct', () => {
    test('fails a target that is not a StatefulSet', () => {
      const chart = Testing.chart();
      const web = new CloneSet(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
      expect(() => new PersistentPodState(chart, 'state', { target: web, requiredTopology: ['kubernetes.io/hostname'] })).toThrow(
        "PersistentPodState at 'test/state': 'target' is a CloneSet (apps.kruise.io/v1alpha1) at 'test/web'; OpenKruise keeps the pod state of StatefulSets only: "
        + 'target an AdvancedStatefulSet or a kplus.StatefulSet');
    });

    test('fails both or neither of target and targetRef', () => {
      const chart = Testing.chart();
      expect(() => new PersistentPodState(chart, 'a', { requiredTopology: ['x'] })).toThrow("PersistentPodState at 'test/a': set exactly one of 'target' or 'targetRef'");
      expect(() => new PersistentPodState(chart, 'b', { target: db(chart), targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x' } })).toThrow(
        "PersistentPodState at 'test/b': set exactly one of 'target' or 'targetRef'");
    });

    test('fails a namespace other than the target\'s', () => {
      fails(chart => new PersistentPodState(chart, 'state', { metadata: { namespace: 'ops' }, target: db(chart, 'data'), requiredTopology: ['kubernetes.io/hostname'] }),
        '[test/state] PersistentPodState "test-state-c8f1d157" (apps.kruise.io/v1alpha1) metadata.namespace: "ops" differs from the namespace of the target StatefulSet "db" (data); create the PersistentPodState in the target\'s namespace');
    });
  });
});
