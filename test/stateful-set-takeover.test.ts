import { Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, StatefulSetTakeover } from '../src';
import { liveStatefulSet } from './fixtures/live-migration';
import { synthFails as fails } from './util/synth-fails';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const find = (ms: any[], kind: string) => ms.find(m => m.kind === kind);

describe('AdvancedStatefulSet takeOver', () => {
  test('takes the name, namespace, selector, pod labels, serviceName and replicas of the running StatefulSet, with no selector label of ours', () => {
    const chart = Testing.chart();
    const sts = new AdvancedStatefulSet(chart, 'db', {
      takeOver: StatefulSetTakeover.fromManifest(liveStatefulSet()),
      containers: [{ name: 'main', image: 'postgres:17', portNumber: 5432 }],
    });
    sts.containers[0].mount('/var/lib/postgresql/data', sts.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) }));
    const ms = Testing.synth(chart);
    const m = find(ms, 'StatefulSet');
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.metadata).toEqual({ name: 'db', namespace: 'shop' });
    expect(m.spec.selector).toEqual({ matchLabels: { app: 'db' } });
    expect(m.spec.template.metadata.labels).toEqual({ app: 'db', tier: 'data' });
    expect(m.spec.serviceName).toBe('db');
    expect(m.spec.replicas).toBe(3);
    expect(m.spec.volumeClaimTemplates.map((c: any) => c.metadata.name)).toEqual(['data']);
    const svc = find(ms, 'Service');
    expect(svc.metadata).toEqual({ name: 'db', namespace: 'shop' });
    expect(svc.spec.selector).toEqual({ app: 'db' });
    expect(svc.spec.clusterIP).toBe('None');
  });

  test('replicas set on the construct win over the running count', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'db', {
      takeOver: StatefulSetTakeover.of({ name: 'db', selector: { app: 'db' }, serviceName: 'db-headless', replicas: 3 }),
      replicas: 5,
      containers: [{ image: 'postgres:17' }],
    });
    const ms = Testing.synth(chart);
    expect(find(ms, 'StatefulSet').spec.replicas).toBe(5);
    expect(find(ms, 'StatefulSet').spec.serviceName).toBe('db-headless');
    expect(find(ms, 'Service').metadata.name).toBe('db-headless');
    expect(find(ms, 'StatefulSet').metadata.name).toBe('db');
  });

  test('different claim templates fail synth with the running ones named', () => {
    fails(chart => {
      const sts = new AdvancedStatefulSet(chart, 'db', { takeOver: StatefulSetTakeover.fromManifest(liveStatefulSet()), containers: [{ image: 'postgres:17' }] });
      sts.addVolumeClaimTemplate('pgdata', { storage: Size.gibibytes(1) });
    }, '[test/db] StatefulSet "db" (apps.kruise.io/v1beta1) spec.volumeClaimTemplates: ["pgdata"] differ from ["data"] of the StatefulSet "db" it takes over: its pods mount the claims <template>-db-<ordinal>, and OpenKruise cannot change the volumes of a running pod; declare the same claim templates with addVolumeClaimTemplate()');
  });

  test('a different name, namespace, service or select: true is refused with the reason', () => {
    const takeOver = StatefulSetTakeover.fromManifest(liveStatefulSet());
    expect(() => new AdvancedStatefulSet(Testing.chart(), 'a', { takeOver, metadata: { name: 'db2' } }))
      .toThrow('AdvancedStatefulSet at \'test/a\': metadata.name "db2" is not the name "db" of the StatefulSet it takes over; its pods are db-<ordinal> and are adopted only by a StatefulSet of that name, so leave metadata.name out or set "db"');
    expect(() => new AdvancedStatefulSet(Testing.chart(), 'b', { takeOver, metadata: { namespace: 'other' } }))
      .toThrow('AdvancedStatefulSet at \'test/b\': metadata.namespace "other" is not the namespace "shop" of the StatefulSet it takes over; pods are adopted only in their own namespace');
    expect(() => new AdvancedStatefulSet(Testing.chart(), 'c', { takeOver, select: true }))
      .toThrow('AdvancedStatefulSet at \'test/c\': select: true adds a selector label the running pods of "db" do not carry, so none would be adopted; leave select out with takeOver');
    const chart = Testing.chart();
    const svc = new kplus.Service(chart, 'svc', { metadata: { name: 'other' }, clusterIP: 'None', ports: [{ port: 5432 }] });
    expect(() => new AdvancedStatefulSet(chart, 'd', { takeOver, service: svc }))
      .toThrow('AdvancedStatefulSet at \'test/d\': service "other" is not the governing Service "db" of the StatefulSet it takes over; the running pods keep that DNS subdomain, so pass that Service or leave service out');
  });

  test('StatefulSetTakeover refuses what it cannot take over, with the reason', () => {
    expect(() => StatefulSetTakeover.fromManifest({ apiVersion: 'apps/v1', kind: 'Deployment' }))
      .toThrow('StatefulSetTakeover.fromManifest(): expected an apps/v1 StatefulSet, got apps/v1/Deployment; pass the parsed manifest of the running StatefulSet');
    const exprs = liveStatefulSet();
    exprs.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] };
    expect(() => StatefulSetTakeover.fromManifest(exprs))
      .toThrow('StatefulSetTakeover.fromManifest(): StatefulSet "db" selects with spec.selector.matchExpressions [{"key":"app","operator":"In","values":["db"]}], which an AdvancedStatefulSet cannot take over; turn the manifest into an Advanced StatefulSet as it is with AdvancedStatefulSet.fromStatefulSetManifest()');
    expect(() => StatefulSetTakeover.of({ name: 'db', selector: {}, serviceName: 'db', replicas: 1 }))
      .toThrow('StatefulSetTakeover.of(): selector of StatefulSet "db" is empty; pass its spec.selector.matchLabels, the labels its running pods carry');
    expect(() => StatefulSetTakeover.of({ name: 'db', selector: { app: 'db' }, serviceName: '', replicas: 1 }))
      .toThrow('StatefulSetTakeover.of(): serviceName of StatefulSet "db" is empty; pass its spec.serviceName (the pods\' DNS subdomain cannot change)');
    expect(() => StatefulSetTakeover.of({ name: 'db', selector: { app: 'db' }, serviceName: 'db', replicas: -1 }))
      .toThrow('StatefulSetTakeover.of(): replicas of StatefulSet "db" is -1; pass its spec.replicas, a whole number of 0 or more');
    expect(() => StatefulSetTakeover.of({ name: 'db', selector: { app: 'db' }, serviceName: 'db', replicas: 1, podLabels: { app: 'web' } }))
      .toThrow('StatefulSetTakeover.of(): podLabels["app"] is "web" but the selector of StatefulSet "db" asks for "db"; the pod labels must carry the selector\'s labels');
  });

  test('fromManifest reads every field it keeps', () => {
    const t = StatefulSetTakeover.fromManifest(liveStatefulSet());
    expect([t.name, t.namespace, t.selector, t.serviceName, t.replicas, t.podLabels, t.claimTemplates])
      .toEqual(['db', 'shop', { app: 'db' }, 'db', 3, { app: 'db', tier: 'data' }, ['data']]);
  });
});

describe('AdvancedStatefulSet takeOver of a cdk8s-plus StatefulSet', () => {
  test('keeps the running pods\' cdk8s.io/metadata.addr label (theirs, not ours) in the selector and the template', () => {
    const old = Testing.chart();
    const sts = new kplus.StatefulSet(old, 'db', { metadata: { name: 'db' }, replicas: 2, containers: [{ image: 'postgres:17', portNumber: 5432 }] });
    void sts;
    const live = Testing.synth(old).find((m: any) => m.kind === 'StatefulSet');
    const label = live.spec.selector.matchLabels['cdk8s.io/metadata.addr'];
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'db2', { takeOver: StatefulSetTakeover.fromManifest(live), containers: [{ image: 'postgres:17', portNumber: 5432 }] });
    const m = find(Testing.synth(chart), 'StatefulSet');
    expect(m.spec.selector).toEqual({ matchLabels: { 'cdk8s.io/metadata.addr': label } });
    expect(m.spec.template.metadata.labels).toEqual({ 'cdk8s.io/metadata.addr': label });
    expect(m.spec.template.spec).toEqual(live.spec.template.spec);
  });
});
