import { UpdatePlan, UpdateType, RejectedBy } from '../../src/plan';

const cs = (spec: any, image = 'registry.k8s.io/pause:3.10', extra: any = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image, ...extra }] } }, ...spec },
});
const one = (a: any, b: any, opts: any = {}) => {
  const r = UpdatePlan.compare([a], [b], opts);
  expect(r.workloads).toHaveLength(1);
  return r.workloads[0];
};

describe('CloneSet', () => {
  test('the default strategy is ReCreate: even an image change recreates, forced by updateStrategy.type', () => {
    const w = one(cs({}, 'registry.k8s.io/pause:3.9'), cs({}));
    expect(w.updateType).toBe(UpdateType.RECREATE);
    expect(w.forcedBy).toBe('spec.updateStrategy.type');
  });
  test('paused: nothing moves, every pod stays on the old template', () => {
    const s = { updateStrategy: { type: 'InPlaceIfPossible', paused: true } };
    const w = one(cs(s, 'registry.k8s.io/pause:3.9'), cs(s));
    expect([w.updateType, w.podsUpdated, w.podsOnOldRevision, w.batches]).toEqual([UpdateType.IN_PLACE, 0, 4, []]);
  });
  test('InPlaceOnly refuses a positive maxSurge', () => {
    const s = { updateStrategy: { type: 'InPlaceOnly', maxSurge: 1 } };
    const w = one(cs(s, 'registry.k8s.io/pause:3.9'), cs(s));
    expect([w.updateType, w.rejectedField, w.rejectedBy]).toEqual([UpdateType.REJECTED, 'spec.updateStrategy.maxSurge', RejectedBy.WEBHOOK]);
    expect(w.rejection).toBe('spec.updateStrategy.maxSurge: 1 resolves to more than 0 pods, which InPlaceOnly does not allow; remove maxSurge or set it to 0');
  });
  test('maxUnavailable 0 and no surge: the webhook refuses it', () => {
    const s = { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 0 } };
    expect(one(cs(s, 'registry.k8s.io/pause:3.9'), cs(s)).rejectedField).toBe('spec.updateStrategy.maxUnavailable');
  });
  test('maxSurge rounds up and then maxUnavailable rounds down: 25% of 4 each is 1 + 1 per batch', () => {
    const s = { updateStrategy: { type: 'InPlaceIfPossible', maxSurge: '25%', maxUnavailable: '25%' } };
    expect(one(cs(s, 'registry.k8s.io/pause:3.9'), cs(s)).batches).toEqual([2, 2]);
  });
  test('volumeClaimTemplates with RecreatePodWhenChangeVCTInCloneSetGate on: recreate', () => {
    const vct = (s: string) => ({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: s } } } }], updateStrategy: { type: 'InPlaceIfPossible' } });
    const w = one(cs(vct('1Gi')), cs(vct('2Gi')), { featureGates: { RecreatePodWhenChangeVCTInCloneSetGate: true } });
    expect([w.updateType, w.forcedBy, w.podsUpdated]).toEqual([UpdateType.RECREATE, 'spec.volumeClaimTemplates', 4]);
    const off = one(cs(vct('1Gi')), cs(vct('2Gi')));
    expect(off.updateType).toBe(UpdateType.NONE);
    expect(off.notes[0]).toContain('existing pods keep their claims');
  });
  test('TemplateNoDefaults on: an explicit default is a real template change', () => {
    const s = { updateStrategy: { type: 'InPlaceIfPossible' } };
    expect(UpdatePlan.compare([cs(s)], [cs(s, undefined, { imagePullPolicy: 'Always' })]).workloads).toEqual([]);
    const w = one(cs(s), cs(s, undefined, { imagePullPolicy: 'Always' }), { featureGates: { TemplateNoDefaults: true } });
    expect(w.forcedBy).toBe('spec.template.spec.containers[0].imagePullPolicy');
  });
  test('scaling only: no pod update, the note says how many pods start', () => {
    const w = one(cs({}), cs({ replicas: 6 }));
    expect([w.updateType, w.podsUpdated]).toEqual([UpdateType.NONE, 0]);
    expect(w.notes).toEqual(['replicas 4 -> 6: 2 new pods start from the new template']);
  });
  test('created and deleted CloneSets', () => {
    const r = UpdatePlan.compare([cs({}, 'p', {})], [{ ...cs({}), metadata: { name: 'api', namespace: 'default' } }]);
    expect(r.workloads.map(w => [w.name, w.updateType, w.podsUpdated])).toEqual([['api', UpdateType.CREATE, 4], ['web', UpdateType.DELETE, 0]]);
  });
  test('an object without namespace is matched in the default namespace', () => {
    const a = cs({ updateStrategy: { type: 'InPlaceIfPossible' } }, 'registry.k8s.io/pause:3.9');
    const b: any = cs({ updateStrategy: { type: 'InPlaceIfPossible' } });
    delete b.metadata.namespace;
    expect(one(a, b).updateType).toBe(UpdateType.IN_PLACE);
  });
});

const asts = (spec: any, image = 'registry.k8s.io/pause:3.10', apiVersion = 'apps.kruise.io/v1beta1') => ({
  apiVersion,
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'default' },
  spec: {
    replicas: 3,
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: { metadata: { labels: { app: 'db' } }, spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'app', image }] } },
    ...spec,
  },
});

describe('Advanced StatefulSet', () => {
  test('default ReCreate policy, OrderedReady: one pod at a time, highest ordinal first', () => {
    const w = one(asts({}, 'registry.k8s.io/pause:3.9'), asts({}));
    expect([w.updateType, w.updatedOrdinals, w.batches, w.forcedBy]).toEqual([UpdateType.RECREATE, [2, 1, 0], [1, 1, 1], 'spec.updateStrategy.rollingUpdate.podUpdatePolicy']);
  });
  test('reserveOrdinals (v1beta1) shift the ordinals; partition compares with the ordinal', () => {
    const s = { reserveOrdinals: [1], updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 2 } } };
    const w = one(asts(s, 'registry.k8s.io/pause:3.9'), asts(s));
    expect([w.updateType, w.updatedOrdinals, w.keptOrdinals]).toEqual([UpdateType.IN_PLACE, [3, 2], [0]]);
  });
  test('a v1alpha1 object has no reserveOrdinals', () => {
    const s = { reserveOrdinals: [1] };
    const w = one(asts(s, 'registry.k8s.io/pause:3.9', 'apps.kruise.io/v1alpha1'), asts(s, undefined, 'apps.kruise.io/v1alpha1'));
    expect(w.updatedOrdinals).toEqual([2, 1, 0]);
    expect(w.notes).toContain('reserveOrdinals exists only in apps.kruise.io/v1beta1: a v1alpha1 object loses it');
  });
  test('in-place policies need the InPlaceUpdateReady readiness gate', () => {
    const s = { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } } };
    const b: any = asts(s);
    delete b.spec.template.spec.readinessGates;
    expect(one(asts(s, 'registry.k8s.io/pause:3.9'), b).rejectedField).toBe('spec.template.spec.readinessGates');
  });
  test('OnDelete: nothing moves by itself', () => {
    const s = { updateStrategy: { type: 'OnDelete' } };
    const w = one(asts(s, 'registry.k8s.io/pause:3.9'), asts(s));
    expect([w.updateType, w.podsUpdated, w.podsOnOldRevision]).toEqual([UpdateType.ON_DELETE, 0, 3]);
  });
  test('serviceName is immutable', () => {
    expect(one(asts({}), asts({ serviceName: 'db2' })).rejectedField).toBe('spec.serviceName');
  });
  test('StatefulSetAutoResizePVCGate with OnPodRollingUpdate refuses a new access mode', () => {
    const v = (mode: string) => ({ volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' }, volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { accessModes: [mode], resources: { requests: { storage: '1Gi' } } } }] });
    const w = one(asts(v('ReadWriteOnce')), asts(v('ReadWriteOncePod')), { featureGates: { StatefulSetAutoResizePVCGate: true } });
    expect(w.rejectedField).toBe('spec.volumeClaimTemplates[0].spec.accessModes');
  });
});

const ads = (ru: any, image = 'registry.k8s.io/pause:3.10', extra: any = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'agent' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'app', image, ...extra }] } } },
});

describe('Advanced DaemonSet', () => {
  test('Standard rolling update recreates; InPlaceIfPossible is in place', () => {
    expect(one(ads({}, 'registry.k8s.io/pause:3.9'), ads({})).updateType).toBe(UpdateType.RECREATE);
    expect(one(ads({ rollingUpdateType: 'InPlaceIfPossible' }, 'registry.k8s.io/pause:3.9'), ads({ rollingUpdateType: 'InPlaceIfPossible' })).updateType).toBe(UpdateType.IN_PLACE);
  });
  test('no pod counts without the node count; with it, partition and maxUnavailable give the batches', () => {
    const ru = { rollingUpdateType: 'InPlaceIfPossible', partition: 1, maxUnavailable: 2 };
    const unknown = one(ads(ru, 'registry.k8s.io/pause:3.9'), ads(ru));
    expect([unknown.podsUpdated, unknown.replicas]).toEqual([undefined, undefined]);
    const known = one(ads(ru, 'registry.k8s.io/pause:3.9'), ads(ru), { daemonSetNodes: 5 });
    expect([known.podsUpdated, known.podsOnOldRevision, known.batches]).toEqual([4, 1, [2, 2]]);
  });
  test('rollingUpdate.selector: only pods on matching nodes, named in the plan', () => {
    const ru = { rollingUpdateType: 'InPlaceIfPossible', selector: { matchLabels: { pool: 'canary' } } };
    const w = one(ads(ru, 'registry.k8s.io/pause:3.9'), ads(ru), { daemonSetNodes: 5 });
    expect(w.nodeSelector).toBe('{"matchLabels":{"pool":"canary"}}');
    expect(w.podsUpdated).toBeUndefined();
  });
  test('the DaemonSet persists no template defaults: writing imagePullPolicy Always out recreates', () => {
    const w = one(ads({ rollingUpdateType: 'InPlaceIfPossible' }), ads({ rollingUpdateType: 'InPlaceIfPossible' }, undefined, { imagePullPolicy: 'Always' }));
    expect([w.updateType, w.forcedBy]).toEqual([UpdateType.RECREATE, 'spec.template.spec.containers[0].imagePullPolicy']);
  });
});

describe('UnitedDeployment', () => {
  const ud = (subsets: any[], image: string, key = 'cloneSetTemplate') => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'shop', namespace: 'default' },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'shop' } },
      template: { [key]: { metadata: { labels: { app: 'shop' } }, spec: { selector: { matchLabels: { app: 'shop' } }, template: { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'app', image }] } } } } },
      topology: { subsets },
    },
  });
  test('percent subsets round half up and the rest is shared; Deployment subsets recreate', () => {
    const subsets = [{ name: 'a', replicas: '30%' }, { name: 'b' }, { name: 'c' }];
    const r = UpdatePlan.compare([ud(subsets, 'p:1', 'deploymentTemplate')], [ud(subsets, 'p:2', 'deploymentTemplate')]);
    expect(r.workloads.map(w => [w.subset, w.subsetKind, w.updateType, w.replicas])).toEqual([
      ['a', 'Deployment', UpdateType.RECREATE, 2], ['b', 'Deployment', UpdateType.RECREATE, 2], ['c', 'Deployment', UpdateType.RECREATE, 1],
    ]);
  });
  test('a subset nodeSelectorTerm cannot change; added and removed subsets', () => {
    const term = (v: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [v] }] });
    const r = UpdatePlan.compare([ud([{ name: 'a', nodeSelectorTerm: term('x') }, { name: 'old' }], 'p:1')], [ud([{ name: 'a', nodeSelectorTerm: term('y') }, { name: 'new' }], 'p:1')]);
    expect(r.workloads.map(w => [w.subset, w.updateType, w.rejectedField])).toEqual([
      ['a', UpdateType.REJECTED, 'spec.topology.subsets[0].nodeSelectorTerm'], ['new', UpdateType.CREATE, undefined], ['old', UpdateType.DELETE, undefined],
    ]);
    expect(r.rejected).toBe(true);
  });
});
