import { Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedDaemonSet, AdvancedStatefulSet, CloneSet, CloneSetUpdateStrategy, Rollout, RolloutIngressProvider, RolloutMatchType, RolloutPathMatchType,
  RolloutPause, RolloutStrategy, RolloutStrategyType, RolloutTrafficRouting, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const pct = kplus.PercentOrAbsolute.percent;
const abs = kplus.PercentOrAbsolute.absolute;
const image = 'nginx:1.27';
const find = (manifests: any[], kind: string, name?: string) => {
  const hits = manifests.filter(m => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (hits.length !== 1) throw new Error(`expected one ${kind} ${name ?? ''}, found ${hits.length}`);
  return hits[0];
};

/** A CloneSet "web" with a Service "web" and an Ingress "web" routing to it. */
function webApp(chart: any, more: Record<string, any> = {}) {
  const web = new CloneSet(chart, 'web', {
    metadata: { name: 'web', namespace: 'shop' },
    replicas: 4,
    podMetadata: { labels: { app: 'web' } },
    containers: [{ image, portNumber: 8080 }],
    ...more,
  });
  const service = web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080 }] });
  const ingress = new kplus.Ingress(chart, 'ingress', { metadata: { name: 'web', namespace: 'shop' } });
  ingress.addRule('/', kplus.IngressBackend.fromService(service));
  return { web, service, ingress };
}

const threeSteps = () => [
  { replicas: abs(1), traffic: 10, pause: RolloutPause.after(Duration.minutes(5)) },
  { replicas: pct(50), traffic: 50, pause: RolloutPause.manual() },
  { replicas: pct(100) },
];

describe('Rollout', () => {
  test('a CloneSet canary through an Ingress: every field of the Rollout, and the workload label', () => {
    const chart = Testing.chart();
    const { web, ingress } = webApp(chart);
    const r = web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
    const all = Testing.synth(chart);
    const m = find(all, 'Rollout');
    expect(m).toEqual({
      apiVersion: 'rollouts.kruise.io/v1beta1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        workloadRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
        strategy: {
          canary: {
            steps: [
              { replicas: 1, traffic: '10%', pause: { duration: 300 } },
              { replicas: '50%', traffic: '50%', pause: {} },
              { replicas: '100%' },
            ],
            trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }],
          },
        },
      },
    });
    expect(find(all, 'CloneSet').metadata.labels).toEqual({ 'rollouts.kruise.io/workload-type': 'cloneset' });
    expect(r.node.path).toBe('test/web/Rollout');
    expect(r.workloadRef).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' });
    expect(r.strategy.type).toBe(RolloutStrategyType.CANARY);
    expect(r.strategy.steps).toHaveLength(3);
  });

  test('blue-green through a Gateway API HTTPRoute, with a failure threshold, a grace period and no canary Service', () => {
    const chart = Testing.chart();
    const { web, service } = webApp(chart);
    web.rollout({
      strategy: RolloutStrategy.blueGreen({
        steps: [{ replicas: pct(100), traffic: 0 }, { replicas: pct(100), traffic: 100 }],
        trafficRouting: RolloutTrafficRouting.gatewayHttpRoute({ httpRouteName: 'web-route', service, gracePeriod: Duration.seconds(10) }),
        failureThreshold: pct(10),
      }),
      paused: true,
      disabled: false,
    });
    const m = find(Testing.synth(chart), 'Rollout');
    expect(m.spec).toEqual({
      workloadRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      disabled: false,
      strategy: {
        paused: true,
        blueGreen: {
          steps: [{ replicas: '100%', traffic: '0%' }, { replicas: '100%', traffic: '100%' }],
          trafficRoutings: [{ service: 'web', gateway: { httpRouteName: 'web-route' }, gracePeriodSeconds: 10 }],
          failureThreshold: '10%',
        },
      },
    });
  });

  test('A/B matches (headers, query parameters, path) and request header changes', () => {
    const chart = Testing.chart();
    const { web, ingress } = webApp(chart);
    web.rollout({
      strategy: RolloutStrategy.canary({
        steps: [{
          replicas: abs(1),
          matches: [
            { headers: [{ name: 'x-canary', value: 'always' }, { name: 'user-agent', value: '.*Android.*', type: RolloutMatchType.REGULAR_EXPRESSION }] },
            { queryParams: [{ name: 'beta', value: 'true' }], path: { value: '/api', type: RolloutPathMatchType.EXACT } },
          ],
          requestHeaderModifier: { set: { 'x-release': 'canary' }, add: { 'x-trace': '1' }, remove: ['x-debug'] },
        }, { replicas: pct(100) }],
        trafficRouting: RolloutTrafficRouting.ingress({ ingress, provider: RolloutIngressProvider.HIGRESS }),
      }),
    });
    const canary = find(Testing.synth(chart), 'Rollout').spec.strategy.canary;
    expect(canary.steps[0]).toEqual({
      replicas: 1,
      matches: [
        { headers: [{ name: 'x-canary', value: 'always' }, { name: 'user-agent', value: '.*Android.*', type: 'RegularExpression' }] },
        { queryParams: [{ name: 'beta', value: 'true' }], path: { value: '/api', type: 'Exact' } },
      ],
      requestHeaderModifier: { set: [{ name: 'x-release', value: 'canary' }], add: [{ name: 'x-trace', value: '1' }], remove: ['x-debug'] },
    });
    expect(canary.trafficRoutings).toEqual([{ service: 'web', ingress: { name: 'web', classType: 'higress' } }]);
  });

  test('custom network resources, several providers at once, and a TrafficRouting object by name', () => {
    const chart = Testing.chart();
    const { web } = webApp(chart);
    web.rollout({
      strategy: RolloutStrategy.canary({
        steps: [{ replicas: abs(1), traffic: 5 }],
        trafficRouting: RolloutTrafficRouting.custom({
          refs: [{ apiVersion: 'networking.istio.io/v1beta1', kind: 'VirtualService', name: 'web' }],
        }),
        disableGenerateCanaryService: true,
      }),
    });
    expect(find(Testing.synth(chart), 'Rollout').spec.strategy.canary).toEqual({
      steps: [{ replicas: 1, traffic: '5%' }],
      trafficRoutings: [{ service: 'web', customNetworkRefs: [{ apiVersion: 'networking.istio.io/v1beta1', kind: 'VirtualService', name: 'web' }] }],
      disableGenerateCanaryService: true,
    });

    const both = Testing.chart();
    const app = webApp(both);
    app.web.rollout({
      strategy: RolloutStrategy.canary({
        steps: [{ replicas: abs(1), traffic: 5 }],
        trafficRouting: RolloutTrafficRouting.of({ ingressName: 'web', ingressProvider: RolloutIngressProvider.custom('contour'), httpRouteName: 'web', serviceName: 'web' }),
      }),
    });
    expect(find(Testing.synth(both), 'Rollout').spec.strategy.canary.trafficRoutings).toEqual([
      { service: 'web', ingress: { name: 'web', classType: 'contour' }, gateway: { httpRouteName: 'web' } },
    ]);

    const ref = Testing.chart();
    webApp(ref).web.rollout({ strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1), traffic: 5 }], trafficRouting: RolloutTrafficRouting.fromTrafficRoutingName('shop-routing') }) });
    expect(find(Testing.synth(ref), 'Rollout').spec.strategy.canary).toEqual({ steps: [{ replicas: 1, traffic: '5%' }], trafficRoutingRef: 'shop-routing' });
  });

  test('Rollout.of a kplus Deployment: an extra canary Deployment with its own pod labels', () => {
    const chart = Testing.chart();
    const d = new kplus.Deployment(chart, 'api', { metadata: { name: 'api' }, containers: [{ image, portNumber: 8080 }] });
    d.exposeViaService({ name: 'api' });
    Rollout.of(d, {
      strategy: RolloutStrategy.canary({
        steps: [{ replicas: pct(80), traffic: 80 }],
        enableExtraWorkloadForCanary: true,
        patchPodTemplateMetadata: { labels: { track: 'canary' } },
        trafficRouting: RolloutTrafficRouting.gatewayHttpRoute({ httpRouteName: 'api' }),
      }),
    });
    const all = Testing.synth(chart);
    expect(find(all, 'Rollout').spec).toEqual({
      workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
      strategy: {
        canary: {
          steps: [{ replicas: '80%', traffic: '80%' }],
          enableExtraWorkloadForCanary: true,
          patchPodTemplateMetadata: { labels: { track: 'canary' } },
          trafficRoutings: [{ service: 'api', gateway: { httpRouteName: 'api' } }],
        },
      },
    });
    expect(find(all, 'Deployment').metadata.labels).toEqual({ 'rollouts.kruise.io/workload-type': 'deployment' });
  });

  test('Advanced StatefulSet and DaemonSet: their workloadRef and workload label; batches without traffic need no Service', () => {
    const chart = Testing.chart();
    const db = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, containers: [{ image: 'postgres:16' }] });
    db.rollout({ strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1) }, { replicas: pct(100) }] }), rollbackInBatch: true });
    const agent = new AdvancedDaemonSet(chart, 'agent', { metadata: { name: 'agent' }, containers: [{ image: 'fluent/fluent-bit:3.1' }] });
    agent.rollout({ strategy: RolloutStrategy.canary({ steps: [{ replicas: pct(10) }, { replicas: pct(100) }] }) });
    const all = Testing.synth(chart);
    expect(find(all, 'Rollout', 'db').metadata.annotations).toEqual({ 'rollouts.kruise.io/rollback-in-batch': 'true' });
    expect(find(all, 'Rollout', 'db').spec.workloadRef).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' });
    expect(find(all, 'Rollout', 'agent').spec.workloadRef).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', name: 'agent' });
    expect(find(all, 'StatefulSet').metadata.labels).toEqual({ 'rollouts.kruise.io/workload-type': 'statefulset' });
    expect(find(all, 'DaemonSet').metadata.labels).toEqual({ 'rollouts.kruise.io/workload-type': 'daemonset' });
  });

  test('rolloutId is written onto the workload as annotation and label; metadata of the Rollout is kept', () => {
    const chart = Testing.chart();
    const { web, ingress } = webApp(chart);
    web.rollout({
      metadata: { name: 'web-release', labels: { team: 'shop' }, annotations: { owner: 'shop' } },
      strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }),
      rolloutId: 'v2.1',
    });
    const all = Testing.synth(chart);
    expect(find(all, 'Rollout').metadata).toEqual({ name: 'web-release', namespace: 'shop', labels: { team: 'shop' }, annotations: { owner: 'shop' } });
    const cs = find(all, 'CloneSet');
    expect(cs.metadata.annotations).toEqual({ 'rollouts.kruise.io/rollout-id': 'v2.1' });
    expect(cs.metadata.labels).toEqual({ 'rollouts.kruise.io/rollout-id': 'v2.1', 'rollouts.kruise.io/workload-type': 'cloneset' });
  });

  test('a Rollout by workloadRef, for a workload of another app', () => {
    const chart = Testing.chart();
    new Rollout(chart, 'legacy', {
      metadata: { name: 'legacy' },
      workloadRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'legacy' },
      strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1) }] }),
    });
    expect(find(Testing.synth(chart), 'Rollout').spec.workloadRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'legacy' });
  });
});

describe('Rollout failures', () => {
  test('fails without a stable Service, naming the fix', () => {
    fails(chart => {
      const web = new CloneSet(chart, 'web', { containers: [{ image, portNumber: 80 }] });
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingressName: 'web' }) }) });
    }, '[test/web/Rollout] Rollout "test-web-c8ba1bf5" (rollouts.kruise.io/v1beta1) spec.strategy.canary.trafficRoutings[0].service: (unset) is not given and the workload exposes no Service; call exposeViaService() on the workload first, or pass \'service\' or \'serviceName\' to the traffic routing');
  });

  test('fails when the workload exposes two Services and none is named', () => {
    fails(chart => {
      const web = new CloneSet(chart, 'web', { containers: [{ image, portNumber: 80 }] });
      web.exposeViaService({ name: 'web' });
      web.exposeViaService({ name: 'web-internal' });
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingressName: 'web' }) }) });
    }, '[test/web/Rollout] Rollout "test-web-c8ba1bf5" (rollouts.kruise.io/v1beta1) spec.strategy.canary.trafficRoutings[0].service: (unset) is not given and the workload exposes 2 Services (\'test/web/webService\', \'test/web/web-internalService\'), so the stable one is unclear; pass \'service\' to the traffic routing');
  });

  test('fails when the Service does not select the workload\'s pods, or the Ingress routes elsewhere', () => {
    fails(chart => {
      const { web } = webApp(chart);
      const other = new kplus.Service(chart, 'other', { metadata: { name: 'other', namespace: 'shop' }, selector: kplus.Pods.select(chart, 'o', { labels: { app: 'other' } }), ports: [{ port: 80 }] });
      const ingress = new kplus.Ingress(chart, 'other-ingress', { metadata: { name: 'other', namespace: 'shop' } });
      ingress.addRule('/', kplus.IngressBackend.fromService(other));
      const trafficRouting = RolloutTrafficRouting.ingress({ ingress, service: other });
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting }) });
    },
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.trafficRoutings[0].service: "other" selects {"app":"other"}, which the pods of CloneSet "web" (labels {"app":"web","cdk8s.io/metadata.addr":"test-web-c8694308"}) do not carry, so no traffic reaches the workload; route through a Service that selects the workload\'s pods (e.g. the one exposeViaService() makes)');
    fails(chart => {
      const { web } = webApp(chart);
      const ingress = new kplus.Ingress(chart, 'elsewhere', { metadata: { name: 'elsewhere', namespace: 'shop' } });
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
      ingress.addDefaultBackend(kplus.IngressBackend.fromResource(web as any));
    },
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.trafficRoutings[0].ingress.name: "elsewhere" routes to no Service, not to the stable Service "web", so the canary Ingress the controller copies from it would not reach the workload; add a rule to the Ingress whose backend is the Service "web" (kplus.IngressBackend.fromService(service))');
  });

  test('fails when the Service or Ingress is in another namespace', () => {
    fails(chart => {
      const { web, service } = webApp(chart);
      const ingress = new kplus.Ingress(chart, 'edge', { metadata: { name: 'edge', namespace: 'edge' } });
      ingress.addRule('/', kplus.IngressBackend.fromService(service));
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
    }, '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.trafficRoutings[0].ingress.name: "edge" is the Ingress at \'test/edge\' in namespace edge, not in the Rollout\'s namespace shop; route through an Ingress of the workload\'s namespace');
  });

  test('fails when the Rollout is not in the workload\'s namespace (an App-wide rule)', () => {
    fails(chart => {
      const { web, ingress } = webApp(chart);
      web.rollout({ metadata: { namespace: 'other' }, strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
    }, '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) metadata.namespace: "other" differs from the namespace of CloneSet "web" at \'test/web\' (shop), and a Rollout only releases a workload of its own namespace; create the Rollout in the workload\'s namespace');
  });

  test('fails on a CloneSet whose own partition or pause would fight the release', () => {
    fails(chart => {
      const { web, ingress } = webApp(chart, { updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: pct(50), paused: true }) });
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
    },
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is CloneSet "web" at \'test/web\', whose spec.updateStrategy.partition ("50%") the release drives: a re-apply during a release (GitOps sync, kubectl apply) resets the value the controller lowers batch by batch and releases every remaining pod at once; remove spec.updateStrategy.partition from the CloneSet (the Rollout\'s steps decide how many pods are updated)',
    'whose spec.updateStrategy.paused (true) the release drives');
  });

  test('a CloneSet may keep maxUnavailable and an in-place update type under a canary', () => {
    const chart = Testing.chart();
    const { web, ingress } = webApp(chart, { updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: abs(1) }) });
    web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
    expect(find(Testing.synth(chart), 'CloneSet').spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', maxUnavailable: 1 });
  });

  test('fails on blue-green for an Advanced StatefulSet, a native DaemonSet and a ReplicaSet, with the admission message', () => {
    fails(chart => {
      const db = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, containers: [{ image: 'postgres:16' }] });
      db.rollout({ strategy: RolloutStrategy.blueGreen({ steps: [{ replicas: pct(100) }] }) });
    }, '[test/db/Rollout] Rollout "db" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"db"} is an Advanced StatefulSet, which a blue-green release cannot update (only Deployments and CloneSets); use a canary strategy for this workload');
    fails(chart => {
      const ds = new kplus.DaemonSet(chart, 'agent', { metadata: { name: 'agent' }, containers: [{ image }] });
      Rollout.of(ds, { strategy: RolloutStrategy.canary({ steps: [{ replicas: pct(10) }] }) });
    }, '[test/agent/Rollout] Rollout "agent" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent"} is a native DaemonSet, which Kruise Rollouts cannot release; use an Advanced DaemonSet (apps.kruise.io DaemonSet) instead');
    fails(chart => {
      new Rollout(chart, 'rs', { workloadRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f' }, strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1) }] }) });
    }, '[test/rs] Rollout (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d9f"} is a ReplicaSet, which the webhook admits but no Kruise Rollouts controller releases; target the Deployment that owns the ReplicaSet');
  });

  test('fails on step values the webhook refuses', () => {
    fails(chart => {
      const { web, ingress } = webApp(chart);
      web.rollout({
        strategy: RolloutStrategy.canary({
          steps: [{ replicas: pct(60), traffic: 12.5 }, { replicas: abs(0) }],
          trafficRouting: RolloutTrafficRouting.ingress({ ingress }),
        }),
      });
    },
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[0].replicas: "60%" is more than the 50% of the replicas a step that routes traffic may update in place',
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[0].traffic: "12.5%" is not a whole percentage; use e.g. "20%"',
    '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[1].replicas: 0 is less than 1 pod');
  });

  test('rollout() twice, workload and workloadRef together, neither', () => {
    const chart = Testing.chart();
    const { web, ingress } = webApp(chart);
    const strategy = RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) });
    web.rollout({ strategy });
    expect(() => web.rollout({ strategy })).toThrow('a Rollout of \'test/web\' already exists at \'test/web/Rollout\'; a workload can have one Rollout only, so put every step into one strategy');
    expect(() => new Rollout(chart, 'both', { strategy, workload: web, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' } }))
      .toThrow('Rollout at \'test/both\': \'workload\' and \'workloadRef\' are both set; name the workload one way');
    expect(() => new Rollout(chart, 'none', { strategy })).toThrow('Rollout at \'test/none\': no workload; set \'workload\' (a construct) or \'workloadRef\'');
  });

  test('two Rollouts of one workload fail in the App', () => {
    fails(chart => {
      const { web, ingress } = webApp(chart);
      web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps(), trafficRouting: RolloutTrafficRouting.ingress({ ingress }) }) });
      new Rollout(chart, 'second', { metadata: { name: 'web-2', namespace: 'shop' }, workloadRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' }, strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1) }] }) });
    }, '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is also released by Rollout "web-2" at \'test/second\', and a workload can have one Rollout only; keep one Rollout per workload (merge their steps)');
  });

  test('durations, providers and ids are checked where they are given', () => {
    expect(() => RolloutPause.after(Duration.millis(1500))).toThrow('RolloutPause.after(): 1.5 seconds is not a whole, non-negative number of seconds; use e.g. Duration.seconds(30) or Duration.minutes(10)');
    expect(() => RolloutTrafficRouting.gatewayHttpRoute({ httpRouteName: 'web', gracePeriod: Duration.millis(100) }))
      .toThrow('RolloutTrafficRouting gracePeriod: 0.1 seconds is not a whole, non-negative number of seconds');
    expect(() => RolloutTrafficRouting.of({ serviceName: 'web' }))
      .toThrow('RolloutTrafficRouting: no provider; give an Ingress (ingress or ingressName), a Gateway API HTTPRoute (httpRouteName) or custom resources (customRefs)');
    expect(() => RolloutTrafficRouting.of({ ingressName: 'a', ingress: {} as any })).toThrow('RolloutTrafficRouting: \'ingress\' and \'ingressName\' are both set; give the Ingress one way');
    expect(() => RolloutTrafficRouting.of({ httpRouteName: 'a', ingressProvider: RolloutIngressProvider.MSE }))
      .toThrow('RolloutTrafficRouting: an Ingress provider (mse) is set without an Ingress; give ingress or ingressName');
    const chart = Testing.chart();
    const { web } = webApp(chart);
    expect(() => web.rollout({ strategy: RolloutStrategy.canary({ steps: threeSteps() }), rolloutId: 'v2 final' }))
      .toThrow('Rollout at \'test/web/Rollout\': rolloutId "v2 final" must be empty or consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit; it is written as a label, so use up to 63 letters, digits, \'-\', \'_\' or \'.\'');
  });

  test('warns of a traffic weight with nothing to route it', () => {
    const chart = Testing.chart();
    const { web } = webApp(chart);
    web.rollout({ strategy: RolloutStrategy.canary({ steps: [{ replicas: abs(1), traffic: 10 }, { replicas: pct(100) }] }) });
    Testing.synth(chart);
    expect(Warnings.of(chart)).toEqual([
      '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[0].traffic: "10%" shapes traffic, but nothing routes traffic (no trafficRoutings), so only the pods change; add a trafficRouting (RolloutTrafficRouting.ingress(), gatewayHttpRoute() or custom()) or drop traffic and matches from the steps',
    ]);
  });
});

describe('a blue-green release of a CloneSet that stalls', () => {
  test('a later step asking for more new pods than the CloneSet surges is a warning; steps within the bound are not', () => {
    const chart = Testing.chart();
    const { web } = webApp(chart);
    web.rollout({ strategy: RolloutStrategy.blueGreen({ steps: [{ replicas: pct(50) }, { replicas: pct(100) }] }) });
    expect(Warnings.of(chart)).toEqual([
      '[test/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.blueGreen.steps[1].replicas: "100%" stops the blue-green release of CloneSet "web" for good: with 2 of 4 pods already new, '
      + 'the CloneSet surges at most 2 new pods, not the 4 step 2 asks for, so the step never pauses and the release never completes; make the first step the largest (one step of 100% creates every new pod at once), '
      + 'or keep each later step within max(new pods so far, replicas - new pods so far)',
    ]);
    const ok = Testing.chart();
    webApp(ok).web.rollout({ strategy: RolloutStrategy.blueGreen({ steps: [{ replicas: pct(25) }, { replicas: pct(50) }] }) });
    expect(Warnings.of(ok)).toEqual([]);
  });
});
