import { ApiObject, Duration, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedStatefulSetUpdateStrategy, CloneSet, CloneSetUpdateStrategy, ImagePullJobCompletionPolicy, PodUpdatePolicy, UnitedDeployment,
  UnitedDeploymentScheduleStrategy, UnitedDeploymentScheduleStrategyType, UnitedDeploymentSubset, UnitedDeploymentTemplate,
  UnitedDeploymentTemplateKind, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';

const image = 'nginx:1.27';
const zone = (z: string) => [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', z)];
const zoneTerm = (z: string) => ({ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }] });
const abs = kplus.PercentOrAbsolute.absolute;
const pct = kplus.PercentOrAbsolute.percent;
const twoZones = (a: Partial<UnitedDeploymentSubset> = {}, b: Partial<UnitedDeploymentSubset> = {}): UnitedDeploymentSubset[] => [
  { name: 'zone-a', nodes: zone('zone-a'), ...a },
  { name: 'zone-b', nodes: zone('zone-b'), ...b },
];

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthUd = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'UnitedDeployment');

describe('UnitedDeployment', () => {
  test('renders only the selector, the template and what was set, at apps.kruise.io/v1alpha1', () => {
    const chart = Testing.chart();
    const ud = new UnitedDeployment(chart, 'web', {
      template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }),
      subsets: [{ name: 'zone-a', replicas: abs(2) }],
    });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(m.kind).toBe('UnitedDeployment');
    expect(Object.keys(m.spec)).toEqual(['selector', 'template', 'topology']);
    const selected = { 'cdk8s.io/metadata.addr': 'test-web-WorkloadTemplate-c844c9f8' };
    expect(ud.workload.matchLabels).toEqual(selected);
    expect(m.spec.selector).toEqual({ matchLabels: selected });
    expect(m.spec.topology).toEqual({ subsets: [{ name: 'zone-a', replicas: 2 }] });
    const t = m.spec.template.cloneSetTemplate;
    expect(Object.keys(m.spec.template)).toEqual(['cloneSetTemplate']);
    expect(t.metadata).toEqual({ labels: selected });
    // the schema requires the template's selector: it is the UnitedDeployment's
    expect(Object.keys(t.spec)).toEqual(['selector', 'template']);
    expect(t.spec.selector).toEqual({ matchLabels: selected });
    expect(t.spec.template.metadata.labels).toEqual(selected);
    expect(t.spec.template.spec.containers.map((c: any) => c.image)).toEqual([image]);
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const ud = new UnitedDeployment(chart, 'web', {
      metadata: { name: 'web', namespace: 'shop', labels: { team: 'shop' } },
      replicas: 10,
      revisionHistoryLimit: 5,
      template: UnitedDeploymentTemplate.cloneSet({ containers: [{ name: 'web', image }] }),
      scheduleStrategy: UnitedDeploymentScheduleStrategy.fixed(),
      partitions: { 'zone-a': 2, 'zone-b': 0 },
      subsets: [
        {
          name: 'zone-a',
          nodes: [...zone('zone-a'), kplus.NodeLabelQuery.exists('pool')],
          tolerations: [kplus.NodeTaintQuery.is('dedicated', 'web', { effect: kplus.TaintEffect.NO_SCHEDULE })],
          replicas: pct(40),
          patch: { metadata: { labels: { zone: 'a' } } },
        },
        { name: 'zone-b', nodes: zone('zone-b'), replicas: abs(6) },
      ],
    });
    const m = synthUd(chart);
    expect(m.metadata).toEqual({ name: 'web', namespace: 'shop', labels: { team: 'shop' } });
    expect(m.spec.replicas).toBe(10);
    expect(m.spec.revisionHistoryLimit).toBe(5);
    expect(m.spec.updateStrategy).toEqual({ manualUpdate: { partitions: { 'zone-a': 2, 'zone-b': 0 } } });
    expect(m.spec.topology).toEqual({
      scheduleStrategy: { type: 'Fixed' },
      subsets: [
        {
          name: 'zone-a',
          nodeSelectorTerm: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] }, { key: 'pool', operator: 'Exists' }] },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
          replicas: '40%',
          patch: { metadata: { labels: { zone: 'a' } } },
        },
        { name: 'zone-b', nodeSelectorTerm: zoneTerm('zone-b'), replicas: 6 },
      ],
    });
    expect(ud.replicas).toBe(10);
    expect(ud.revisionHistoryLimit).toBe(5);
    expect(ud.scheduleStrategy?.type).toBe(UnitedDeploymentScheduleStrategyType.FIXED);
    expect(ud.templateKind).toBe(UnitedDeploymentTemplateKind.CLONE_SET);
    expect(ud.resourceType).toBe('uniteddeployments');
    expect(ud.subsets.map(s => s.name)).toEqual(['zone-a', 'zone-b']);
  });

  test('addSubset() after construction counts; subsets returns a copy', () => {
    const chart = Testing.chart();
    const ud = new UnitedDeployment(chart, 'web', { replicas: 3, template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }) });
    ud.subsets.push({ name: 'ignored' });
    ud.addSubset({ name: 'zone-a', nodes: zone('zone-a'), replicas: abs(1) });
    ud.addSubset({ name: 'zone-b', nodes: zone('zone-b') });
    expect(synthUd(chart).spec.topology.subsets.map((s: any) => s.name)).toEqual(['zone-a', 'zone-b']);
  });

  test('the template is synthesized lazily: containers, labels and scheduling added to `workload` later count', () => {
    const chart = Testing.chart();
    const ud = new UnitedDeployment(chart, 'web', {
      replicas: 2,
      template: UnitedDeploymentTemplate.deployment({ podMetadata: { labels: { app: 'web' } } }),
      subsets: twoZones(),
    });
    ud.workload.addContainer({ name: 'web', image });
    ud.workload.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('pool', 'web')));
    const pod = synthUd(chart).spec.template.deploymentTemplate.spec.template;
    expect(pod.metadata.labels.app).toBe('web');
    expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['web']);
    expect(pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms)
      .toEqual([{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['web'] }] }]);
  });

  test('its default child is the UnitedDeployment object; the hidden workload has no object of its own', () => {
    const chart = Testing.chart();
    const ud = new UnitedDeployment(chart, 'web', { template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }), subsets: [{ name: 'a', replicas: abs(1) }] });
    expect((ud.node.defaultChild as ApiObject).kind).toBe('UnitedDeployment');
    expect(ud.workload.node.tryFindChild('Resource')).toBeUndefined();
    expect(ud.workload).toBeInstanceOf(CloneSet);
  });

  describe('template factories', () => {
    test('cloneSet(): the CloneSet props render into cloneSetTemplate, labels and annotations of the template metadata with it', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'web', {
        replicas: 4,
        template: UnitedDeploymentTemplate.cloneSet({
          metadata: { labels: { tier: 'web' }, annotations: { 'example.com/owner': 'shop' } },
          containers: [{ name: 'web', image }],
          updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: abs(1), gracePeriod: Duration.seconds(10) }),
          scaleStrategy: { maxUnavailable: abs(2) },
          minReady: Duration.seconds(5),
          revisionHistoryLimit: 3,
          volumeClaimTemplates: [{ name: 'data', storage: Size.gibibytes(1) }],
        }),
        subsets: twoZones({ replicas: abs(2) }),
      });
      const t = synthUd(chart).spec.template.cloneSetTemplate;
      expect(t.metadata.labels).toEqual({ 'tier': 'web', 'cdk8s.io/metadata.addr': 'test-web-WorkloadTemplate-c844c9f8' });
      expect(t.metadata.annotations).toEqual({ 'example.com/owner': 'shop' });
      expect(t.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', maxUnavailable: 1, inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } });
      expect(t.spec.scaleStrategy).toEqual({ maxUnavailable: 2 });
      expect(t.spec.minReadySeconds).toBe(5);
      expect(t.spec.revisionHistoryLimit).toBe(3);
      expect(t.spec.volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }]);
      expect(t.spec.replicas).toBeUndefined();
    });

    test('advancedStatefulSet(): advancedStatefulSetTemplate, and one governing headless Service named like the UnitedDeployment, in its namespace', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'db', {
        metadata: { name: 'db', namespace: 'data' },
        replicas: 3,
        template: UnitedDeploymentTemplate.advancedStatefulSet({
          containers: [{ name: 'db', image: 'postgres:16.4', portNumber: 5432 }],
          podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
          updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({
            podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE, maxUnavailable: abs(1),
          }),
        }),
        subsets: twoZones({ replicas: abs(1) }),
      });
      const out = Testing.synth(chart);
      expect(out.map((m: any) => m.kind)).toEqual(['UnitedDeployment', 'Service']);
      const [ud, svc] = out;
      const t = ud.spec.template.advancedStatefulSetTemplate;
      expect(Object.keys(ud.spec.template)).toEqual(['advancedStatefulSetTemplate']);
      expect(t.spec.serviceName).toBe('db');
      expect(t.spec.podManagementPolicy).toBe('Parallel');
      expect(t.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 } });
      expect(t.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
      expect(t.spec.selector).toEqual(ud.spec.selector);
      expect(t.spec.replicas).toBeUndefined();
      expect(svc.metadata).toEqual({ name: 'db', namespace: 'data' });
      expect(svc.spec.clusterIP).toBe('None');
      expect(svc.spec.selector).toEqual(ud.spec.selector.matchLabels);
      expect(svc.spec.ports).toEqual([{ port: 5432, targetPort: 5432 }]);
    });

    test('statefulSet(): statefulSetTemplate as kplus renders it, without kplus\'s partition 0, and a governing Service named like the UnitedDeployment', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'cache', {
        metadata: { name: 'cache' },
        replicas: 2,
        template: UnitedDeploymentTemplate.statefulSet({ containers: [{ name: 'redis', image: 'redis:7.4', portNumber: 6379 }] }),
        subsets: twoZones({ replicas: abs(1) }),
      });
      const out = Testing.synth(chart);
      expect(out.map((m: any) => m.kind)).toEqual(['UnitedDeployment', 'Service']);
      const [ud, svc] = out;
      const spec = ud.spec.template.statefulSetTemplate.spec;
      expect(spec.serviceName).toBe('cache');
      expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
      expect(spec.podManagementPolicy).toBe('OrderedReady');
      expect(spec.replicas).toBeUndefined();
      expect(spec.selector).toEqual(ud.spec.selector);
      expect(svc.metadata.name).toBe('cache');
      expect(svc.spec.ports).toEqual([{ port: 6379, targetPort: 6379 }]);
    });

    test('statefulSet() without ports gets a port-less headless Service; a Service of the user\'s is used as given', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'a', {
        metadata: { name: 'a' }, replicas: 1, template: UnitedDeploymentTemplate.statefulSet({ containers: [{ image }] }), subsets: [{ name: 'x' }],
      });
      const own = new kplus.Service(chart, 'svc', { metadata: { name: 'mine' }, clusterIP: 'None', ports: [{ port: 80 }] });
      new UnitedDeployment(chart, 'b', {
        metadata: { name: 'b' }, replicas: 1, template: UnitedDeploymentTemplate.statefulSet({ containers: [{ image }], service: own }), subsets: [{ name: 'x' }],
      });
      const out = Testing.synth(chart);
      const svc = out.filter((m: any) => m.kind === 'Service');
      expect(svc.map((s: any) => s.metadata.name).sort()).toEqual(['a', 'mine']);
      expect(svc.find((s: any) => s.metadata.name === 'a').spec.ports).toBeUndefined();
      expect(out.find((m: any) => m.metadata.name === 'b').spec.template.statefulSetTemplate.spec.serviceName).toBe('mine');
    });

    test('deployment(): deploymentTemplate as kplus renders it (strategy, deadlines), without replicas', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'api', {
        replicas: 4,
        template: UnitedDeploymentTemplate.deployment({
          containers: [{ image }],
          strategy: kplus.DeploymentStrategy.recreate(),
          progressDeadline: Duration.minutes(5),
        }),
        subsets: twoZones(),
      });
      const spec = synthUd(chart).spec.template.deploymentTemplate.spec;
      expect(spec.strategy).toEqual({ type: 'Recreate' });
      expect(spec.progressDeadlineSeconds).toBe(300);
      expect(spec.replicas).toBeUndefined();
    });

    test('prePullImages() on the template workload pulls on the nodes of the UnitedDeployment\'s pods, in its namespace', () => {
      const chart = Testing.chart();
      const ud = new UnitedDeployment(chart, 'web', {
        metadata: { namespace: 'shop' },
        replicas: 2,
        template: UnitedDeploymentTemplate.cloneSet({ containers: [{ name: 'web', image }] }),
        subsets: twoZones(),
      });
      (ud.workload as CloneSet).prePullImages({ completionPolicy: ImagePullJobCompletionPolicy.always({ ttlAfterFinished: Duration.hours(1) }) });
      const out = Testing.synth(chart);
      const job = out.find((m: any) => m.kind === 'ImagePullJob');
      expect(job.metadata.namespace).toBe('shop');
      expect(job.spec.podSelector).toEqual(synthUd(chart).spec.selector);
    });

    test.each([
      ['cloneSet', () => UnitedDeploymentTemplate.cloneSet({ replicas: 3 }), 'cloneSetTemplate'],
      ['advancedStatefulSet', () => UnitedDeploymentTemplate.advancedStatefulSet({ replicas: 3 }), 'advancedStatefulSetTemplate'],
      ['statefulSet', () => UnitedDeploymentTemplate.statefulSet({ replicas: 3 }), 'statefulSetTemplate'],
      ['deployment', () => UnitedDeploymentTemplate.deployment({ replicas: 3 }), 'deploymentTemplate'],
    ])('fails replicas on the %s template, naming the fix', (_name, template, kind) => {
      const chart = Testing.chart();
      expect(() => new UnitedDeployment(chart, 'web', { template: template() })).toThrow(
        `UnitedDeployment at 'test/web': template ${kind} 'replicas' (3) is not used: the UnitedDeployment sets the replicas of each subset; `
        + 'set \'replicas\' on the UnitedDeployment and on its subsets instead');
    });

    test('fails a name or namespace in the template metadata', () => {
      const chart = Testing.chart();
      expect(() => new UnitedDeployment(chart, 'web', { template: UnitedDeploymentTemplate.cloneSet({ metadata: { name: 'web' } }) })).toThrow(
        'UnitedDeployment at \'test/web\': template cloneSetTemplate \'metadata.name\' ("web") is not used: each subset workload is named after the UnitedDeployment '
        + 'and its subset, in its namespace; set only labels and annotations');
      expect(() => new UnitedDeployment(chart, 'api', { template: UnitedDeploymentTemplate.deployment({ metadata: { namespace: 'x' } }) })).toThrow(
        'template deploymentTemplate \'metadata.namespace\' ("x") is not used');
    });
  });

  describe('schedule strategy', () => {
    test('adaptive() renders its options, and subsets take minReplicas/maxReplicas', () => {
      const chart = Testing.chart();
      const ud = new UnitedDeployment(chart, 'web', {
        replicas: 10,
        template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }),
        scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive({
          rescheduleCritical: Duration.seconds(60),
          unschedulableDuration: Duration.minutes(10),
          reserveUnschedulablePods: true,
        }),
        subsets: twoZones({ minReplicas: abs(2), maxReplicas: pct(50) }, { minReplicas: abs(1) }),
      });
      const t = synthUd(chart).spec.topology;
      expect(t.scheduleStrategy).toEqual({ type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 60, unschedulableDuration: 600, reserveUnschedulablePods: true } });
      expect(t.subsets.map((s: any) => [s.minReplicas, s.maxReplicas])).toEqual([[2, '50%'], [1, undefined]]);
      expect(ud.scheduleStrategy?.type).toBe(UnitedDeploymentScheduleStrategyType.ADAPTIVE);
    });

    test('adaptive() with no options renders the type only', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'web', {
        replicas: 2,
        template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }),
        scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive(),
        subsets: twoZones(),
      });
      expect(synthUd(chart).spec.topology.scheduleStrategy).toEqual({ type: 'Adaptive' });
    });

    test('fails a reschedule time that is not whole seconds, naming the construct and the prop', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 2,
        template: UnitedDeploymentTemplate.cloneSet({ containers: [{ image }] }),
        scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive({ rescheduleCritical: Duration.millis(2500) }),
        subsets: twoZones(),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) scheduleStrategy.rescheduleCritical: "2.5 seconds" is not a whole number of seconds; use Duration.seconds(3)');
    });
  });

  // One negative test per rule of section 9 of the v1.9.0 webhook rules, written through the construct.
  describe('admission rules, through the construct', () => {
    const cloneSet = (props: object = {}) => UnitedDeploymentTemplate.cloneSet({ containers: [{ name: 'web', image }], ...props });

    test('rule 1: the name is a DNS subdomain', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { metadata: { name: 'Web' }, replicas: 2, template: cloneSet(), subsets: twoZones() }),
        '[test/web] UnitedDeployment "Web" (apps.kruise.io/v1alpha1) metadata.name: "Web" must consist of lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit; '
        + 'give the UnitedDeployment a DNS subdomain name (lowercase letters, digits, \'-\' and \'.\')');
    });

    test('rule 2: replicas not negative', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: -1, template: cloneSet(), subsets: twoZones() }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.replicas: -1 is negative; use 0 or more replicas');
    });

    test('rule 3: the selector is not empty (a template workload with `select: false` and nothing selected)', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 2, template: cloneSet({ select: false }), subsets: twoZones() }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.selector: {} is empty and would select every pod of the namespace; add matchLabels or matchExpressions');
    });

    test('rule 3: the selector is valid', () => {
      fails(chart => {
        const ud = new UnitedDeployment(chart, 'web', { replicas: 2, template: cloneSet(), subsets: twoZones() });
        ud.workload.select(kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('tier', [])] }));
      }, '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.selector.matchExpressions[0].values: [] must list at least one value for operator In; fix the selector');
    });

    test('stricter: the selector has matchLabels (the controller adds the subset label to them)', () => {
      fails(chart => {
        const ud = new UnitedDeployment(chart, 'web', {
          replicas: 2,
          template: UnitedDeploymentTemplate.deployment({ select: false, podMetadata: { labels: { app: 'web' } }, containers: [{ image }] }),
          subsets: twoZones(),
        });
        ud.workload.select(kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('app', ['web'])] }));
      }, '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.selector.matchLabels: (unset) is empty: OpenKruise admits it, but the UnitedDeployment controller adds the subset label to matchLabels and fails on a selector without any, '
        + 'so no subset workload is created; select the pods by at least one label in matchLabels');
    });

    test('rule 4: reserved rescheduling only with stateless templates', () => {
      fails(chart => new UnitedDeployment(chart, 'db', {
        replicas: 2,
        template: UnitedDeploymentTemplate.advancedStatefulSet({ containers: [{ image }] }),
        scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive({ reserveUnschedulablePods: true }),
        subsets: twoZones(),
      }), '[test/db] UnitedDeployment "test-db-c8b96b87" (apps.kruise.io/v1alpha1) spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods: true only works with stateless subsets (CloneSet or Deployment), '
        + 'not with a advancedStatefulSetTemplate; turn it off, or use a cloneSetTemplate or deploymentTemplate');
    });

    test('rule 5: exactly one workload template (the factories make one; a JSON patch adding a second is caught)', () => {
      fails(chart => {
        const ud = new UnitedDeployment(chart, 'web', { replicas: 2, template: cloneSet(), subsets: twoZones() });
        ApiObject.of(ud).addJsonPatch(JsonPatch.add('/spec/template/deploymentTemplate', { spec: {} }));
      }, '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template: ["cloneSetTemplate","deploymentTemplate"] has more than one subset workload template; keep exactly one of cloneSetTemplate, deploymentTemplate');
    });

    test('rules 6 and 10: the selector matches the pod labels of a Deployment template', () => {
      fails(chart => {
        const ud = new UnitedDeployment(chart, 'api', { replicas: 2, template: UnitedDeploymentTemplate.deployment({ containers: [{ image }] }), subsets: twoZones() });
        ud.workload.select(kplus.LabelSelector.of({ labels: { tier: 'api' } }));
      }, '[test/api] UnitedDeployment "test-api-c855049c" (apps.kruise.io/v1alpha1) spec.template.deploymentTemplate.spec.template.metadata.labels: {"cdk8s.io/metadata.addr":"test-api-WorkloadTemplate-c85f5904"} '
        + 'do not match spec.selector {"matchLabels":{"cdk8s.io/metadata.addr":"test-api-WorkloadTemplate-c85f5904","tier":"api"}}; add the selected labels to the pod template metadata');
    });

    test('rule 7: no replicas in the template (refused when the template is built)', () => {
      const chart = Testing.chart();
      expect(() => new UnitedDeployment(chart, 'api', { template: UnitedDeploymentTemplate.deployment({ replicas: 2 }) })).toThrow("'replicas' (2) is not used");
    });

    test('rule 8: no rolling-update partition in an Advanced StatefulSet template', () => {
      fails(chart => new UnitedDeployment(chart, 'db', {
        replicas: 2,
        template: UnitedDeploymentTemplate.advancedStatefulSet({
          containers: [{ image }], updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: 1 }),
        }),
        subsets: twoZones(),
      }), '[test/db] UnitedDeployment "test-db-c8b96b87" (apps.kruise.io/v1alpha1) spec.template.advancedStatefulSetTemplate.spec.updateStrategy.rollingUpdate.partition: 1 is not used: the UnitedDeployment sets the partition of each subset; '
        + 'remove it; use spec.updateStrategy.manualUpdate.partitions');
    });

    test('rule 8: no rolling-update partition in a StatefulSet template (a partition other than kplus\'s default 0 is kept, and refused)', () => {
      fails(chart => new UnitedDeployment(chart, 'db', {
        replicas: 2,
        template: UnitedDeploymentTemplate.statefulSet({
          containers: [{ image }], strategy: kplus.StatefulSetUpdateStrategy.rollingUpdate({ partition: 2 }),
        }),
        subsets: twoZones(),
      }), '[test/db] UnitedDeployment "test-db-c8b96b87" (apps.kruise.io/v1alpha1) spec.template.statefulSetTemplate.spec.updateStrategy.rollingUpdate.partition: 2 is not used: the UnitedDeployment sets the partition of each subset');
    });

    test('stricter: no partition in a CloneSet template (the controller overwrites it)', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 2,
        template: cloneSet({ updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: abs(1) }) }),
        subsets: twoZones(),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template.cloneSetTemplate.spec.updateStrategy.partition: 1 is not used: OpenKruise admits it, but the UnitedDeployment sets the partition of each subset CloneSet; '
        + 'remove it; use spec.updateStrategy.manualUpdate.partitions');
    });

    test('rule 9: the pod template annotations of a StatefulSet template', () => {
      fails(chart => new UnitedDeployment(chart, 'db', {
        replicas: 2,
        template: UnitedDeploymentTemplate.statefulSet({ containers: [{ image }], podMetadata: { annotations: { 'bad key': 'x' } } }),
        subsets: twoZones(),
      }), '[test/db] UnitedDeployment "test-db-c8b96b87" (apps.kruise.io/v1alpha1) spec.template.statefulSetTemplate.spec.template.metadata.annotations["bad key"]: "bad key" key name part must consist of letters');
    });

    test('rule 10: restartPolicy Always in a Deployment template', () => {
      fails(chart => new UnitedDeployment(chart, 'api', {
        replicas: 2,
        template: UnitedDeploymentTemplate.deployment({ containers: [{ image }], restartPolicy: kplus.RestartPolicy.ON_FAILURE }),
        subsets: twoZones(),
      }), '[test/api] UnitedDeployment "test-api-c855049c" (apps.kruise.io/v1alpha1) spec.template.deploymentTemplate.spec.template.spec.restartPolicy: "OnFailure" is not allowed for the pods of a Deployment; use Always (the default)');
    });

    test('rule 10: the pod template of a Deployment template as the API server checks it', () => {
      fails(chart => new UnitedDeployment(chart, 'api', {
        replicas: 2,
        template: UnitedDeploymentTemplate.deployment({ containers: [{ name: 'api_1', image }] }),
        subsets: twoZones(),
      }), '[test/api] UnitedDeployment "test-api-c855049c" (apps.kruise.io/v1alpha1) spec.template.deploymentTemplate.spec.template.spec.containers[0].name: "api_1" must consist of lowercase letters, digits and \'-\'');
    });

    test('rule 11 (stricter): a CloneSet template meets the CloneSet rules', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 2,
        template: cloneSet({ updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: pct(12.5) }) }),
        subsets: twoZones(),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template.cloneSetTemplate.spec.updateStrategy.maxUnavailable: "12.5%" is not a whole percentage');
    });

    test('rule 12: subset names required, unique, DNS-1123 labels', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 3,
        template: cloneSet(),
        subsets: [{ name: '', replicas: abs(1) }, { name: 'zone-a', replicas: abs(1) }, { name: 'zone-a', replicas: abs(1) }, { name: 'zone.b' }],
      }),
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].name: "" is required (subset #0); name the subset; its workloads are named after it',
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[2].name: "zone-a" is also the name of subsets[1] (subset "zone-a"); give every subset its own name',
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[3].name: "zone.b" must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit (subset "zone.b"); '
        + 'use a DNS-1123 label such as zone-a');
    });

    test('rule 13: the node terms of a subset', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 2,
        template: cloneSet(),
        subsets: twoZones({ nodes: [kplus.NodeLabelQuery.in('topology.kubernetes.io/zone', [])] }, { nodes: [kplus.NodeLabelQuery.gt('cpus', ['4', '8'])] }),
      }),
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].values: [] must list at least one value for operator In (subset "zone-a"); add the node label values to match',
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].nodeSelectorTerm.matchExpressions[0].values: ["4","8"] must hold exactly one value for operator Gt (subset "zone-b"); '
        + 'give one integer to compare the node label with');
    });

    test('rule 13: a node label key that is not a qualified name', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 2, template: cloneSet(), subsets: twoZones({ nodes: [kplus.NodeLabelQuery.exists('bad key')] }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].key: "bad key" name part must consist of letters');
    });

    test('rule 14: the tolerations of a subset', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 2, template: cloneSet(), subsets: twoZones({ tolerations: [kplus.NodeTaintQuery.is('bad key', 'x')] }),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].tolerations[0].key: "bad key"', '(subset "zone-a")');
    });

    test('rule 15: no subset replicas with the Adaptive strategy', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 4, template: cloneSet(), scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive(), subsets: twoZones({ replicas: abs(2) }),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].replicas: 2 is not used with the Adaptive schedule strategy (subset "zone-a"); use minReplicas and maxReplicas instead');
    });

    test('rule 16: percentages need spec.replicas', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { template: cloneSet(), subsets: twoZones({ replicas: pct(50) }, { replicas: abs(2) }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].replicas: "50%" is a string, which is only read as a percentage of spec.replicas, and spec.replicas is unset (subset "zone-a"); '
        + 'set spec.replicas, or give a number of replicas');
    });

    test.each([
      ['above 100%', pct(120), '"120%" is outside 0%-100% (subset "zone-b"); use a percentage from 0% to 100%'],
      ['fractional', pct(12.5), '"12.5%" is not a whole percentage (subset "zone-b"); use a whole percentage such as "40%"'],
      ['negative', abs(-2), '-2 is negative (subset "zone-b"); use 0 or more replicas'],
    ])('rule 16: subset replicas %s', (_name, replicas, message) => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 4, template: cloneSet(), subsets: twoZones({}, { replicas }) }),
        `[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].replicas: ${message}`);
    });

    test('rule 16: minReplicas and maxReplicas are read the same way', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 4, template: cloneSet(), subsets: twoZones({ minReplicas: abs(-1) }, { maxReplicas: pct(101) }),
      }),
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].minReplicas: -1 is negative (subset "zone-a"); use 0 or more replicas',
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].maxReplicas: "101%" is outside 0%-100% (subset "zone-b"); use a percentage from 0% to 100%');
    });

    test('rule 17: minReplicas not above maxReplicas, resolved against spec.replicas', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 10, template: cloneSet(), subsets: twoZones({ minReplicas: abs(4), maxReplicas: pct(30) }),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[0].minReplicas: 4 comes to 4 replicas, more than maxReplicas (3) (subset "zone-a"); lower minReplicas or raise maxReplicas');
    });

    test('rule 18: replicas and minReplicas/maxReplicas are not mixed', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 4, template: cloneSet(), subsets: twoZones({ replicas: abs(2) }, { maxReplicas: abs(3) }),
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets: ["zone-a","zone-b"] mix replicas (set on "zone-a") with minReplicas/maxReplicas; use either replicas on the subsets, or minReplicas/maxReplicas');
    });

    test('rule 19: capacity mode needs spec.replicas and a subset without maxReplicas, and minimums within the maximums', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { template: cloneSet(), subsets: twoZones({ maxReplicas: abs(3) }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.replicas: (unset) is required when subsets set minReplicas or maxReplicas; set the total number of replicas');
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 6,
        template: cloneSet(),
        subsets: twoZones({ minReplicas: abs(3), maxReplicas: abs(3) }, { minReplicas: abs(3), maxReplicas: abs(2) }),
      }),
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets: ["zone-a","zone-b"] all set maxReplicas, so replicas above the maximums have nowhere to go; leave maxReplicas unset on at least one subset',
      '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets: ["zone-a","zone-b"] have minReplicas adding up to 6, more than their maxReplicas (5); lower the minimums or raise the maximums');
    });

    test('rule 20: subset replicas above spec.replicas name the subset that goes over', () => {
      fails(chart => new UnitedDeployment(chart, 'web', {
        replicas: 5, template: cloneSet(), subsets: [...twoZones({ replicas: abs(3) }, { replicas: abs(4) }), { name: 'zone-c', nodes: zone('zone-c') }],
      }), '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].replicas: 4 takes the subset replicas to 7 ("zone-a" 3 + "zone-b" 4), more than spec.replicas (5) (subset "zone-b"); '
        + 'give subset "zone-b" at most 2 replicas, or raise spec.replicas to 7');
    });

    test('rule 20: percentages are rounded as OpenKruise rounds them (half up), so two halves of 5 are 6', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 5, template: cloneSet(), subsets: twoZones({ replicas: pct(50) }, { replicas: pct(50) }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].replicas: "50%" takes the subset replicas to 6 ("zone-a" 50%=3 + "zone-b" 50%=3), more than spec.replicas (5) (subset "zone-b"); '
        + 'give subset "zone-b" at most 2 replicas, or raise spec.replicas to 6');
    });

    test('rule 20: every subset setting replicas must add up to spec.replicas, naming the last subset', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 6, template: cloneSet(), subsets: twoZones({ replicas: abs(2) }, { replicas: abs(2) }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.topology.subsets[1].replicas: 2 leaves 2 of spec.replicas (6) to no subset: every subset sets replicas and they add up to 4 ("zone-a" 2 + "zone-b" 2) (subset "zone-b"); '
        + 'give subset "zone-b" 4 replicas, or leave its replicas unset so that it takes the rest');
    });

    test('rule 20: a subset left without replicas takes the rest', () => {
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'web', { replicas: 6, template: cloneSet(), subsets: twoZones({ replicas: abs(2) }) });
      expect(() => Testing.synth(chart)).not.toThrow();
    });

    test('rule 21: without spec.replicas every subset sets replicas', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { template: cloneSet(), subsets: twoZones({ replicas: abs(2) }) }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.replicas: (unset) must be set unless every subset sets replicas, and "zone-b" does not; set spec.replicas, or give every subset a number of replicas');
      const chart = Testing.chart();
      new UnitedDeployment(chart, 'web', { template: cloneSet(), subsets: twoZones({ replicas: abs(2) }, { replicas: abs(1) }) });
      expect(synthUd(chart).spec.replicas).toBeUndefined();
    });

    test('rule 22: partitions name subsets', () => {
      fails(chart => new UnitedDeployment(chart, 'web', { replicas: 2, template: cloneSet(), subsets: twoZones(), partitions: { 'zone-x': 1 } }),
        '[test/web] UnitedDeployment "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.manualUpdate.partitions["zone-x"]: 1 is the partition of "zone-x", which is not a subset; use one of the subset names ["zone-a","zone-b"]');
    });

    // Rules 23 to 27 compare an update with the stored object and rule 28 judges a deletion: a
    // synthesized manifest has neither, so they are left to the cluster.
  });
});
