import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  FleetChangeType, FleetCheck, FleetFormat, FleetPodChange, FleetProblemKind, FleetProblemSeverity, FleetReport, FleetSourceKind,
} from '../../src';
import { main } from '../../src/cli';

type Json = any;

// ---------------------------------------------------------------- objects, in wire form

function namespace(name: string, labels: Record<string, string> = {}): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

function sidecarSet(name: string, o: {
  selector?: Record<string, string>;
  namespaceSelector?: Record<string, string>;
  containers?: Json[];
  initContainers?: Json[];
  volumes?: Json[];
  updateStrategy?: Json;
  patchPodMetadata?: Json[];
} = {}): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: o.selector ?? { 'platform.io/logging': 'enabled' } },
      ...(o.namespaceSelector ? { namespaceSelector: { matchLabels: o.namespaceSelector } } : {}),
      containers: o.containers ?? [{ name: `${name}-agent`, image: 'agent:1.0' }],
      ...(o.initContainers ? { initContainers: o.initContainers } : {}),
      ...(o.volumes ? { volumes: o.volumes } : {}),
      ...(o.updateStrategy ? { updateStrategy: o.updateStrategy } : {}),
      ...(o.patchPodMetadata ? { patchPodMetadata: o.patchPodMetadata } : {}),
    },
  };
}

interface WorkloadOptions {
  readonly replicas?: number;
  readonly containers?: Json[];
  readonly initContainers?: Json[];
  readonly volumes?: Json[];
  readonly kind?: string;
  readonly apiVersion?: string;
}

function deployment(ns: string, name: string, labels: Record<string, string>, o: WorkloadOptions = {}): Json {
  return {
    apiVersion: o.apiVersion ?? 'apps/v1',
    kind: o.kind ?? 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      ...(o.kind === 'DaemonSet' ? {} : { replicas: o.replicas ?? 2 }),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...labels } },
        spec: {
          containers: o.containers ?? [{ name, image: `${name}:1.0` }],
          ...(o.initContainers ? { initContainers: o.initContainers } : {}),
          ...(o.volumes ? { volumes: o.volumes } : {}),
        },
      },
    },
  };
}

function budget(ns: string, name: string, spec: Json): Json {
  return { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name, namespace: ns }, spec: { maxUnavailable: 1, ...spec } };
}

function spread(ns: string, name: string, target: Json, subsets: Json[] = [{ name: 'a', maxReplicas: 1 }, { name: 'b' }]): Json {
  return { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name, namespace: ns }, spec: { targetRef: target, subsets } };
}

function podState(ns: string, name: string, target: Json): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'PersistentPodState',
    metadata: { name, namespace: ns },
    spec: { targetRef: target, requiredPersistentTopology: { nodeTopologyKeys: ['kubernetes.io/hostname'] } },
  };
}

const LOGGING = { 'platform.io/logging': 'enabled' };
const apps = (name: string, manifests: Json[]) => ({ name, kind: FleetSourceKind.WORKLOADS, manifests });
const cluster = (name: string, manifests: Json[]) => ({ name, kind: FleetSourceKind.LIVE, manifests });
const problemsOf = (r: FleetReport) => r.problems.map(p => [p.kind, p.severity, p.message]);

// ---------------------------------------------------------------- the report

describe('the report of each policy', () => {
  const report = FleetCheck.run({
    policies: [
      sidecarSet('logging', { containers: [{ name: 'log-agent', image: 'fluent-bit:3.1', podInjectPolicy: 'BeforeAppContainer' }] }),
      sidecarSet('mesh', {
        selector: { 'platform.io/mesh': 'enabled' },
        namespaceSelector: { 'platform.io/mesh': 'enabled' },
        initContainers: [{ name: 'mesh-init', image: 'envoy:1.31' }],
        containers: [{ name: 'mesh-proxy', image: 'envoy:1.31', podInjectPolicy: 'AfterAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } }],
      }),
      budget('shop', 'shop-critical', { selector: { matchLabels: { tier: 'critical' } } }),
      spread('shop', 'web-zones', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }),
      podState('shop', 'db-state', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' }),
      // the platform's Namespaces count in every source that has none of its own
      namespace('shop', { 'platform.io/mesh': 'enabled' }),
    ],
    sources: [
      apps('shop-repo', [
        deployment('shop', 'web', { ...LOGGING, 'platform.io/mesh': 'enabled', 'tier': 'critical' }, { replicas: 3 }),
        deployment('shop', 'db', { tier: 'critical' }, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', replicas: 1 }),
        deployment('shop', 'node-agent', LOGGING, { kind: 'DaemonSet' }),
      ]),
      // in this cluster, shop is not in the mesh
      cluster('prod-eu', [
        namespace('shop'),
        deployment('shop', 'web', { ...LOGGING, 'platform.io/mesh': 'enabled' }, { replicas: 5 }),
        deployment('kube-system', 'dns', LOGGING),
      ]),
    ],
  });
  const policy = (name: string) => report.policies.find(p => p.name === name)!;

  test('a SidecarSet: the workloads, namespaces and sources it selects, with their pods; unknown for a DaemonSet', () => {
    const p = policy('logging');
    expect(p.workloads.map(w => `${w.source}:${w.kind}/${w.name}=${w.pods}`)).toEqual([
      'shop-repo:Deployment/web=3', 'shop-repo:DaemonSet/node-agent=undefined', 'prod-eu:Deployment/web=5',
    ]);
    expect(p.sources).toEqual([
      { source: 'shop-repo', namespaces: ['shop'], workloads: 2, pods: undefined },
      { source: 'prod-eu', namespaces: ['shop'], workloads: 1, pods: 5 },
    ]);
    expect(p.pods).toBeUndefined();
    expect(p.problems).toEqual([]);
  });

  test('a SidecarSet: each workload\'s containers in webhook order; a namespace selector decided by each source\'s own Namespace labels', () => {
    expect(policy('logging').injections.map(i => [i.workload.source, i.workload.name, i.sidecarSets, i.initContainers, i.containers, i.containerOrderFixed])).toEqual([
      ['shop-repo', 'web', ['logging', 'mesh'], ['mesh-init'], ['log-agent', 'web', 'mesh-proxy-1', 'mesh-proxy-2'], true],
      ['shop-repo', 'node-agent', ['logging'], [], ['log-agent', 'node-agent'], true],
      ['prod-eu', 'web', ['logging'], [], ['log-agent', 'web'], true],
    ]);
    expect(policy('mesh').workloads.map(w => `${w.source}:${w.name}`)).toEqual(['shop-repo:web']);
  });

  test('a budget by selector, a WorkloadSpread and a PersistentPodState by target', () => {
    expect(policy('shop-critical').workloads.map(w => `${w.source}:${w.name}`)).toEqual(['shop-repo:web', 'shop-repo:db']);
    expect(policy('shop-critical').pods).toBe(4);
    expect(policy('web-zones').workloads.map(w => `${w.source}:${w.name}`)).toEqual(['shop-repo:web', 'prod-eu:web']);
    expect(policy('db-state').workloads.map(w => `${w.source}:${w.name}`)).toEqual(['shop-repo:db']);
  });

  test('the sources, and nothing to refuse', () => {
    expect(report.sources).toEqual([
      { name: 'shop-repo', kind: 'Workloads', workloads: 3, namespaces: 0 },
      { name: 'prod-eu', kind: 'Live', workloads: 2, namespaces: 1 },
    ]);
    expect([report.refused, report.replacesAppContainer, report.compared, report.changes]).toEqual([false, false, false, []]);
    expect(FleetCheck.exitCode(report)).toBe(0);
  });

  test('sidecars of two SidecarSets on one side of the app containers: the order is not fixed, and the report says so', () => {
    const r = FleetCheck.run({
      policies: [sidecarSet('a'), sidecarSet('b')],
      sources: [apps('x', [deployment('shop', 'web', LOGGING)])],
    });
    expect(r.policies[0].injections[0]).toMatchObject({ containers: ['a-agent', 'b-agent', 'web'], containerOrderFixed: false });
    expect(FleetCheck.render(r, FleetFormat.TABLE)).toContain('pods run [a-agent, b-agent, web] (order of the sidecars of different SidecarSets on one side not fixed)');
  });
});

// ---------------------------------------------------------------- every problem kind

describe('every conflict OpenKruise refuses, naming both sides', () => {
  test('SidecarSets under review that inject the same name into pods both can select', () => {
    const r = FleetCheck.run({
      policies: [sidecarSet('a', { containers: [{ name: 'agent', image: 'a:1' }] }), sidecarSet('b', { containers: [{ name: 'agent', image: 'b:1' }] })],
      sources: [],
    });
    expect(problemsOf(r)).toEqual([[FleetProblemKind.SIDECAR_SET_CONFLICT, FleetProblemSeverity.REFUSED,
      'SidecarSet "a" conflicts with SidecarSet "b": their selectors and namespaces can match the same pods and both inject the container "agent"; OpenKruise refuses the second one applied. Rename, or make the selectors or namespaceSelectors disjoint']]);
    expect(r.policies.map(p => p.problems.length)).toEqual([1, 1]);
    expect(r.problems[0].other).toEqual({ kind: 'SidecarSet', name: 'b', namespace: undefined, source: 'policies', file: undefined });
    expect(FleetCheck.exitCode(r)).toBe(2);
  });

  test('a SidecarSet under review against a cluster\'s own SidecarSet (its volume defined differently)', () => {
    const vol = (hostPath: string) => [{ name: 'buffer', hostPath: { path: hostPath } }];
    const r = FleetCheck.run({
      policies: [sidecarSet('logging', { containers: [{ name: 'log-agent', image: 'a', volumeMounts: [{ name: 'buffer', mountPath: '/b' }] }], volumes: vol('/var/a') })],
      sources: [cluster('prod-eu', [sidecarSet('team-agent', { containers: [{ name: 'team', image: 'b', volumeMounts: [{ name: 'buffer', mountPath: '/b' }] }], volumes: vol('/var/b') })])],
    });
    expect(problemsOf(r)).toEqual([[FleetProblemKind.SIDECAR_SET_CONFLICT, FleetProblemSeverity.REFUSED,
      'SidecarSet "logging" conflicts with SidecarSet "team-agent" (prod-eu): their selectors and namespaces can match the same pods and both declare the volume "buffer" with different definitions; OpenKruise refuses the second one applied. Rename, or make the selectors or namespaceSelectors disjoint']]);
    expect(r.problems[0].other.source).toBe('prod-eu');
  });

  test('a cluster\'s copy of a policy under review is the one it replaces: no conflict with itself', () => {
    const r = FleetCheck.run({ policies: [sidecarSet('logging')], sources: [cluster('prod', [sidecarSet('logging', { containers: [{ name: 'logging-agent', image: 'old' }] })])] });
    expect(r.problems).toEqual([]);
  });

  test('budgets: the same target, and loosely overlapping selectors, among policies and against a source\'s own', () => {
    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const r = FleetCheck.run({
      policies: [
        budget('shop', 'web-budget', { targetRef: target }),
        budget('shop', 'web-budget-2', { targetRef: { ...target, apiVersion: 'apps/v1beta1' } }),
        budget('shop', 'critical', { selector: { matchLabels: { tier: 'critical' } } }),
        budget('other', 'critical', { selector: { matchLabels: { tier: 'critical' } } }),
      ],
      sources: [apps('shop-repo', [budget('shop', 'team-critical', { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['critical', 'high'] }] } })])],
    });
    expect(problemsOf(r)).toEqual([
      [FleetProblemKind.BUDGET_CONFLICT, FleetProblemSeverity.REFUSED, 'PodUnavailableBudget shop/web-budget and PodUnavailableBudget shop/web-budget-2 both target Deployment shop/web, which OpenKruise refuses (the second one applied); keep one budget per workload'],
      [FleetProblemKind.BUDGET_CONFLICT, FleetProblemSeverity.REFUSED, 'PodUnavailableBudget shop/critical and PodUnavailableBudget shop/team-critical (shop-repo) have overlapping selectors ({"matchLabels":{"tier":"critical"}} and {"matchExpressions":[{"key":"tier","operator":"In","values":["critical","high"]}]}), which OpenKruise refuses (the second one applied); make the selectors use different keys or disjoint values'],
    ]);
  });

  test('WorkloadSpreads and PersistentPodStates: two for one workload', () => {
    const sts = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' };
    const r = FleetCheck.run({
      policies: [spread('shop', 'zones', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }), podState('shop', 'db-state', sts)],
      sources: [cluster('prod', [spread('shop', 'team-zones', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }), podState('shop', 'db-topology', sts)])],
    });
    expect(problemsOf(r)).toEqual([
      [FleetProblemKind.WORKLOAD_SPREAD_CONFLICT, FleetProblemSeverity.REFUSED, 'WorkloadSpread shop/zones and WorkloadSpread shop/team-zones (prod) both target Deployment shop/web, which OpenKruise refuses (the second one applied); keep one WorkloadSpread per workload'],
      [FleetProblemKind.PERSISTENT_POD_STATE_CONFLICT, FleetProblemSeverity.REFUSED, 'PersistentPodState shop/db-state and PersistentPodState shop/db-topology (prod) both target StatefulSet shop/db, which OpenKruise refuses (the second one applied); keep one PersistentPodState per workload'],
    ]);
  });
});

describe('every collision with an app container, volume or port, naming the SidecarSet and the workload', () => {
  const check = (policies: Json[], workload: Json, own: Json[] = []) => problemsOf(FleetCheck.run({ policies, sources: [apps('billing-repo', [workload, ...own])] }));

  test('a sidecar named like an app container: silently replaced (exit 3)', () => {
    const r = FleetCheck.run({ policies: [sidecarSet('logging', { containers: [{ name: 'api', image: 'agent' }] })], sources: [apps('billing-repo', [deployment('billing', 'api', LOGGING)])] });
    expect(problemsOf(r)).toEqual([[FleetProblemKind.REPLACES_APP_CONTAINER, FleetProblemSeverity.REPLACES_APP_CONTAINER,
      'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar container "api" has the name of an app container, which OpenKruise silently replaces with the sidecar; rename one of them']]);
    expect(r.problems[0].other).toEqual({ kind: 'Deployment', name: 'api', namespace: 'billing', source: 'billing-repo', file: undefined });
    expect([r.refused, r.replacesAppContainer, FleetCheck.exitCode(r)]).toEqual([false, true, 3]);
  });

  test('a sidecar init container named like an app init container: silently replaced', () => {
    expect(check([sidecarSet('logging', { containers: [], initContainers: [{ name: 'migrate', image: 'agent' }] })],
      deployment('billing', 'api', LOGGING, { initContainers: [{ name: 'migrate', image: 'm' }] }))).toEqual([[
      FleetProblemKind.REPLACES_APP_INIT_CONTAINER, FleetProblemSeverity.REPLACES_APP_CONTAINER,
      'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar init container "migrate" has the name of an app init container, which OpenKruise silently replaces with the sidecar; rename one of them',
    ]]);
  });

  test('a name in the other list: the API server refuses the pods, both ways', () => {
    expect(check([sidecarSet('logging', { containers: [{ name: 'migrate', image: 'a' }], initContainers: [{ name: 'api', image: 'b' }] })],
      deployment('billing', 'api', LOGGING, { initContainers: [{ name: 'migrate', image: 'm' }] }))).toEqual([
      [FleetProblemKind.NAME_IN_OTHER_LIST, FleetProblemSeverity.REFUSED, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar container "migrate" has the name of an app init container, which the API server refuses; rename one of them'],
      [FleetProblemKind.NAME_IN_OTHER_LIST, FleetProblemSeverity.REFUSED, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar init container "api" has the name of an app container, which the API server refuses; rename one of them'],
    ]);
  });

  test('a sidecar injected twice, by a policy and the app\'s own SidecarSet', () => {
    expect(check([sidecarSet('logging', { containers: [{ name: 'agent', image: 'a' }] })], deployment('billing', 'api', LOGGING),
      [sidecarSet('billing-tools', { selector: { app: 'api' }, containers: [{ name: 'agent', image: 'b' }] })])).toEqual([
      // the selectors use other labels, and a pod can carry both: rule 29 refuses the second SidecarSet, and the pods would be refused too
      [FleetProblemKind.SIDECAR_SET_CONFLICT, FleetProblemSeverity.REFUSED, 'SidecarSet "logging" conflicts with SidecarSet "billing-tools" (billing-repo): their selectors and namespaces can match the same pods and both inject the container "agent"; OpenKruise refuses the second one applied. Rename, or make the selectors or namespaceSelectors disjoint'],
      [FleetProblemKind.INJECTED_TWICE, FleetProblemSeverity.REFUSED, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar "agent" is injected by both SidecarSet "billing-tools" (billing-repo) and SidecarSet "logging"; rename one of them'],
    ]);
  });

  test('a sidecar volume named like a different app volume; ports and port names', () => {
    expect(check([sidecarSet('logging', {
      containers: [{ name: 'log-agent', image: 'a', ports: [{ containerPort: 8080, name: 'http' }], volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    })], deployment('billing', 'api', LOGGING, {
      containers: [{ name: 'api', image: 'api', ports: [{ containerPort: 8080 }, { containerPort: 9090, name: 'http' }] }],
      volumes: [{ name: 'data', configMap: { name: 'api' } }],
    }))).toEqual([
      [FleetProblemKind.VOLUME, FleetProblemSeverity.WARNING, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): sidecar volume "data" has the name of a different app volume; OpenKruise keeps the app\'s volume, so the sidecar mounts the wrong data; rename one of them'],
      [FleetProblemKind.PORT, FleetProblemSeverity.WARNING, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): containers "log-agent" and "api" both listen on port 8080/TCP in the same pod; change one port'],
      [FleetProblemKind.PORT_NAME, FleetProblemSeverity.WARNING, 'SidecarSet "logging" injects into Deployment billing/api (billing-repo): containers "log-agent" and "api" both name a port "http", so a Service targetPort "http" is ambiguous; rename one port'],
    ]);
  });

  test('a source\'s own SidecarSet colliding with its own app is the source\'s business, not the policies\'', () => {
    expect(check([sidecarSet('logging')], deployment('billing', 'api', { app: 'api' }), [sidecarSet('billing-tools', { selector: { app: 'api' }, containers: [{ name: 'api', image: 'b' }] })])).toEqual([]);
  });
});

// ---------------------------------------------------------------- the change report

describe('a namespace in no input', () => {
  const mesh = sidecarSet('mesh', { selector: { 'platform.io/mesh': 'enabled' }, namespaceSelector: { 'platform.io/mesh': 'enabled' }, containers: [{ name: 'mesh-proxy', image: 'envoy:1.31' }] });
  const byName = sidecarSet('by-name', { selector: LOGGING, namespaceSelector: { 'kubernetes.io/metadata.name': 'payments' }, containers: [{ name: 'log-agent', image: 'fluent-bit:3.1' }] });

  test('a namespaceSelector on its labels cannot be judged: the report says so, naming the workload and the SidecarSet, and assumes nothing', () => {
    const report = FleetCheck.run({
      policies: [mesh],
      sources: [apps('payments-repo', [deployment('payments', 'api', { 'platform.io/mesh': 'enabled' }, { replicas: 2 })])],
    });
    expect(problemsOf(report)).toEqual([[FleetProblemKind.NAMESPACE_UNKNOWN, FleetProblemSeverity.UNKNOWN,
      'SidecarSet "mesh" selects the pods of Deployment payments/api (payments-repo), but namespace "payments" is in no input, so whether spec.namespaceSelector {"matchLabels":{"platform.io/mesh":"enabled"}} selects it is not known and nothing is assumed; '
      + 'add the Namespace to the inputs (kubectl get namespace payments -o yaml, or the app\'s synth output with its Namespace)']]);
    // neither injected nor left out: the workload is in no list of the SidecarSet
    expect(report.policies[0].workloads).toEqual([]);
    expect(report.policies[0].injections).toEqual([]);
    expect(FleetCheck.render(report)).toContain('1 workload not judged (namespace in no input)');
  });

  test('with the Namespace in an input, or a selector on the name alone, it is judged', () => {
    const known = FleetCheck.run({
      policies: [mesh, byName],
      sources: [apps('payments-repo', [namespace('payments', { 'platform.io/mesh': 'enabled' }), deployment('payments', 'api', { ...LOGGING, 'platform.io/mesh': 'enabled' })])],
    });
    expect(problemsOf(known)).toEqual([]);
    expect(known.policies.map(p => [p.name, p.workloads.map(w => w.name)])).toEqual([['mesh', ['api']], ['by-name', ['api']]]);
    const named = FleetCheck.run({ policies: [byName], sources: [apps('payments-repo', [deployment('payments', 'api', LOGGING)])] });
    expect(problemsOf(named)).toEqual([]);
    expect(named.policies[0].workloads.map(w => w.name)).toEqual(['api']);
  });
});

describe('with the old policies: what the change does', () => {
  const fleet = [
    apps('shop-repo', [deployment('shop', 'web', LOGGING, { replicas: 3 }), deployment('shop', 'cart', { ...LOGGING, canary: 'yes' }), deployment('shop', 'search', { team: 'search' })]),
    cluster('prod-eu', [deployment('shop', 'web', LOGGING, { replicas: 6 })]),
  ];
  const agent = (image: string, more: Json = {}) => [{ name: 'log-agent', image, ...more }];
  const change = (oldPolicies: Json[], policies: Json[]) => FleetCheck.run({ policies, oldPolicies, sources: fleet });
  const lines = (r: FleetReport) => r.changes.flatMap(c => [`${c.kind} ${c.name} ${c.change}: ${c.summary}`,
    ...c.workloads.map(w => `  ${w.workload.source}:${w.workload.name} ${w.change} [${w.restarted}] [${w.hotUpgraded}] [${w.onRecreate}]: ${w.summary}`), ...c.notes.map(n => `  note: ${n}`)]);

  test('an image bump: in place by container restart on every selected workload of every source; a partition noted', () => {
    const strategy = { partition: 1 };
    const r = change([sidecarSet('logging', { containers: agent('fluent-bit:3.1'), updateStrategy: strategy })], [sidecarSet('logging', { containers: agent('fluent-bit:3.2'), updateStrategy: strategy })]);
    expect(lines(r)).toEqual([
      'SidecarSet logging Update: in place on running pods: "log-agent" fluent-bit:3.1 -> fluent-bit:3.2 (container restart)',
      '  shop-repo:web InPlace [log-agent] [] []: in place: "log-agent" restarted with the new image',
      '  shop-repo:cart InPlace [log-agent] [] []: in place: "log-agent" restarted with the new image',
      '  prod-eu:web InPlace [log-agent] [] []: in place: "log-agent" restarted with the new image',
      '  note: updateStrategy.partition 1 keeps that many selected pods of each cluster on the old sidecars',
    ]);
    expect(r.compared).toBe(true);
  });

  test('a hot-upgrade sidecar: in place by the container swap; outside updateStrategy.selector: only when recreated', () => {
    const hot = (image: string) => agent(image, { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } });
    const strategy = { selector: { matchLabels: { canary: 'yes' } } };
    const r = change([sidecarSet('logging', { containers: hot('envoy:1.30'), updateStrategy: strategy })], [sidecarSet('logging', { containers: hot('envoy:1.31'), updateStrategy: strategy })]);
    expect(lines(r)).toEqual([
      'SidecarSet logging Update: in place on running pods: "log-agent" envoy:1.30 -> envoy:1.31 (hot upgrade)',
      '  shop-repo:web OnRecreate [] [] [image of sidecar "log-agent"]: only when recreated (its pods are outside updateStrategy.selector): "log-agent" envoy:1.30 -> envoy:1.31',
      '  shop-repo:cart InPlace [] [log-agent] []: in place: "log-agent" hot-upgraded',
      '  prod-eu:web OnRecreate [] [] [image of sidecar "log-agent"]: only when recreated (its pods are outside updateStrategy.selector): "log-agent" envoy:1.30 -> envoy:1.31',
    ]);
  });

  test('more than the image: only when recreated; the selector widened: workloads start being injected', () => {
    const r = change(
      [sidecarSet('logging', { containers: agent('a:1') })],
      [{ ...sidecarSet('logging', { containers: agent('a:1', { env: [{ name: 'LEVEL', value: 'debug' }] }) }), spec: { ...sidecarSet('logging', { containers: agent('a:1', { env: [{ name: 'LEVEL', value: 'debug' }] }) }).spec, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'search'] }] } } }],
    );
    expect(lines(r)).toEqual([
      'SidecarSet logging Update: only on recreate: spec.containers[0].env (sidecar "log-agent")',
      '  shop-repo:search StartInjection [] [] []: starts being injected: new pods get the sidecars, running pods only when recreated',
      '  shop-repo:cart StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
      '  shop-repo:web OnRecreate [] [] [spec.containers[0].env (sidecar "log-agent")]: only when recreated: spec.containers[0].env (sidecar "log-agent")',
      '  prod-eu:web OnRecreate [] [] [spec.containers[0].env (sidecar "log-agent")]: only when recreated: spec.containers[0].env (sidecar "log-agent")',
    ]);
  });

  test('only the selectors change: workloads start and stop being injected; the pods of the ones kept are not touched', () => {
    const narrowed = sidecarSet('logging', { containers: agent('a:1') });
    const r = change(
      [sidecarSet('logging', { containers: agent('a:1') })],
      [{ ...narrowed, spec: { ...narrowed.spec, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'search'] }] }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'shop' } } } }],
    );
    expect(lines(r)).toEqual([
      'SidecarSet logging Update: the selection changes (spec.selector, spec.namespaceSelector); the pods of the workloads it keeps selecting are not touched',
      '  shop-repo:search StartInjection [] [] []: starts being injected: new pods get the sidecars, running pods only when recreated',
      '  shop-repo:cart StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
    ]);
    // an image bump with it: the pods kept get the image in place, and nothing waits for their recreation
    const bumped = sidecarSet('logging', { containers: agent('a:2') });
    const both = change([sidecarSet('logging', { containers: agent('a:1') })], [{ ...bumped, spec: { ...bumped.spec, selector: { matchLabels: { app: 'web' } } } }]);
    expect(lines(both)).toEqual([
      'SidecarSet logging Update: in place on running pods: "log-agent" a:1 -> a:2 (container restart)',
      '  shop-repo:cart StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
      '  shop-repo:web InPlace [log-agent] [] []: in place: "log-agent" restarted with the new image',
      '  prod-eu:web InPlace [log-agent] [] []: in place: "log-agent" restarted with the new image',
    ]);
  });

  test('an update the webhook refuses (a new sidecar container): a problem, exit 2', () => {
    const r = change([sidecarSet('logging', { containers: agent('a:1') })], [sidecarSet('logging', { containers: [...agent('a:1'), { name: 'second', image: 'b:1' }] })]);
    expect(problemsOf(r)).toEqual([[FleetProblemKind.SIDECAR_SET_UPDATE_REFUSED, FleetProblemSeverity.REFUSED,
      'SidecarSet "logging": the webhook refuses the update: spec.containers[1].name: "second" is a new sidecar container, and a SidecarSet update cannot add containers; add the sidecar in a new SidecarSet, or delete and recreate this one']]);
    expect(r.changes[0].workloads.map(w => w.change)).toEqual([FleetPodChange.REFUSED, FleetPodChange.REFUSED, FleetPodChange.REFUSED]);
    expect(FleetCheck.exitCode(r)).toBe(2);
  });

  test('a new SidecarSet and a removed one', () => {
    const r = change([sidecarSet('old-agent')], [sidecarSet('new-agent', { selector: { team: 'search' } })]);
    expect(lines(r)).toEqual([
      'SidecarSet new-agent Create: new SidecarSet: its sidecars are injected into pods created from now on; running pods get them only when recreated',
      '  shop-repo:search StartInjection [] [] []: starts being injected: new pods get the sidecars, running pods only when recreated',
      'SidecarSet old-agent Delete: removed: running pods keep its sidecars until they are recreated',
      '  shop-repo:web StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
      '  shop-repo:cart StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
      '  prod-eu:web StopInjection [] [] []: stops being injected: running pods keep the sidecars until recreated, new pods are created without',
    ]);
  });

  test('a budget and a WorkloadSpread that change which pods they cover', () => {
    const r = change(
      [budget('shop', 'critical', { selector: { matchLabels: { canary: 'yes' } } }), spread('shop', 'zones', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' })],
      [budget('shop', 'critical', { selector: { matchLabels: { team: 'search' } } }), spread('shop', 'zones', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'cart' })],
    );
    expect(lines(r)).toEqual([
      'PodUnavailableBudget critical Update: spec changes (spec.selector)',
      '  shop-repo:search StartCoverage [] [] []: starts being covered by the PodUnavailableBudget',
      '  shop-repo:cart StopCoverage [] [] []: stops being covered by the PodUnavailableBudget',
      'WorkloadSpread zones Update: spec changes (spec.targetRef); a WorkloadSpread acts when pods are created, so running pods stay where they are',
      '  shop-repo:cart StartCoverage [] [] []: starts being covered by the WorkloadSpread',
      '  shop-repo:web StopCoverage [] [] []: stops being covered by the WorkloadSpread',
      '  prod-eu:web StopCoverage [] [] []: stops being covered by the WorkloadSpread',
    ]);
    expect(r.changes.map(c => c.change)).toEqual([FleetChangeType.UPDATE, FleetChangeType.UPDATE]);
  });

  test('nothing changed: no change', () => {
    expect(change([sidecarSet('logging')], [sidecarSet('logging')]).changes).toEqual([]);
  });
});

// ---------------------------------------------------------------- files, the CLI, the formats

describe('cdk8s-kruise fleet', () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-cli-'));
  const write = (dir: string, file: string, objs: Json[]) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), objs.map(o => JSON.stringify(o)).join('\n---\n'));
    return dir;
  };
  const run = (argv: string[]) => {
    let out = '';
    let err = '';
    const code = main(argv, { out: t => (out += t), err: t => (err += t) });
    return { code, out, err };
  };

  const platform = write(tmp(), 'platform.k8s.yaml', [sidecarSet('logging', { containers: [{ name: 'log-agent', image: 'fluent-bit:3.2' }] })]);
  const oldPlatform = write(tmp(), 'platform.k8s.yaml', [sidecarSet('logging', { containers: [{ name: 'log-agent', image: 'fluent-bit:3.1' }] })]);
  const billing = write(tmp(), 'billing/billing.k8s.yaml', [deployment('billing', 'api', LOGGING, { replicas: 3 })]);
  const live = path.join(tmp(), 'prod-eu.json');
  fs.writeFileSync(live, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [deployment('shop', 'log-agent', LOGGING)] }));

  test('table: per policy, the problems, the sources and the result; exit 3 for a replaced app container', () => {
    const r = run(['fleet', '--policies', platform, '--workloads', `billing=${billing}`, '--live', live]);
    expect(r.err).toBe('');
    expect(r.code).toBe(3);
    expect(r.out).toBe([
      'POLICY              WORKLOADS  PODS  SOURCES  PROBLEMS',
      'SidecarSet logging          2     5        2         1',
      '',
      'SidecarSet logging:',
      '  - selects 2 workloads, 5 pods, in 2 sources: billing (billing: 1 workload, 3 pods), prod-eu (shop: 1 workload, 2 pods)',
      '  - pods run [log-agent, api]: Deployment billing/api (billing, 3 pods)',
      '  - pods run [log-agent]: Deployment shop/log-agent (prod-eu, 2 pods)',
      '  - replaces an app container: SidecarSet "logging" injects into Deployment shop/log-agent (prod-eu): sidecar container "log-agent" has the name of an app container, which OpenKruise silently replaces with the sidecar; rename one of them',
      '',
      'Sources: billing (app output: 1 workload, 0 Namespaces), prod-eu (cluster: 1 workload, 0 Namespaces)',
      'Result: nothing the cluster refuses; 1 sidecar silently replacing an app container.',
      '',
    ].join('\n'));
  });

  test('markdown with --old-policies: the pull-request comment of an image bump', () => {
    const r = run(['fleet', '--policies', platform, '--old-policies', oldPlatform, '--workloads', `billing=${billing}`, '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.out).toBe([
      '### Fleet check: 1 policy against 1 workload in 1 source',
      '',
      '**Result:** nothing the cluster refuses; no app container replaced.',
      '',
      '#### What the change does',
      '',
      '**SidecarSet logging** (update): in place on running pods: "log-agent" fluent-bit:3.1 -> fluent-bit:3.2 (container restart)',
      '',
      '- in place: "log-agent" restarted with the new image: Deployment billing/api (billing, 3 pods)',
      '',
      '#### Policies',
      '',
      '| Policy | Workloads | Pods | Sources | Problems |',
      '| --- | ---: | ---: | ---: | ---: |',
      '| SidecarSet logging | 1 | 3 | 1 | 0 |',
      '',
      '<details><summary>SidecarSet logging selects 1 workload, 3 pods, in 1 source: billing (billing: 1 workload, 3 pods)</summary>',
      '',
      '- pods run [log-agent, api]: Deployment billing/api (billing, 3 pods)',
      '',
      '</details>',
      '',
      'Sources: billing (app output: 1 workload, 0 Namespaces)',
      '',
    ].join('\n'));
  });

  test('json: the report itself, with the files objects came from', () => {
    const r = run(['fleet', '--policies', platform, '--workloads', billing, '--format', 'json']);
    const report = JSON.parse(r.out) as FleetReport;
    expect(report.policies[0].file).toBe(path.join(platform, 'platform.k8s.yaml'));
    expect(report.policies[0].workloads[0]).toEqual({ source: billing, kind: 'Deployment', namespace: 'billing', name: 'api', pods: 3, file: path.join(billing, 'billing', 'billing.k8s.yaml') });
  });

  test('the same through the API', () => {
    const report = FleetCheck.fromPaths({ policies: [platform], workloads: [`billing=${billing}`], live: [live] });
    expect(FleetCheck.render(report)).toBe(run(['fleet', '--policies', platform, '--workloads', `billing=${billing}`, '--live', live]).out);
    expect(report.sources.map(s => s.name)).toEqual(['billing', 'prod-eu']);
  });

  test('one pod is counted in the singular', () => {
    const single = write(tmp(), 'single.k8s.yaml', [deployment('billing', 'worker', LOGGING, { replicas: 1 })]);
    expect(run(['fleet', '--policies', oldPlatform, '--workloads', `single=${single}`]).out.split('\n').slice(4, 6)).toEqual([
      '  - selects 1 workload, 1 pod, in 1 source: single (billing: 1 workload, 1 pod)',
      '  - pods run [log-agent, worker]: Deployment billing/worker (single, 1 pod)',
    ]);
  });

  test.each([
    [['fleet'], 'cdk8s-kruise fleet: say which policies to check: --policies PATH (cdk8s-kruise fleet --help)\n'],
    [['fleet', '--policies', 'p'], "cdk8s-kruise fleet: say what the policies act on: --workloads PATH (an app's synth output) or --live FILE (a cluster's objects)\n"],
    [['fleet', '--policies', 'p', '--live', 'l', '--format', 'html'], "cdk8s-kruise fleet: --format 'html' is not table, markdown or json\n"],
    [['fleet', '--policies', '/nonexistent-p', '--live', 'l'], "cdk8s-kruise fleet: --policies '/nonexistent-p' does not exist; pass a synth output folder (e.g. dist) or a manifest file\n"],
    [['fleet', '--nodes', '3'], "cdk8s-kruise fleet: Unknown option '--nodes' (cdk8s-kruise fleet --help)\n"],
    [['fleet', '--policies', platform, '--live', '/nonexistent-l.json'], "cdk8s-kruise fleet: --live '/nonexistent-l.json' does not exist; pass a file of a cluster's objects, "
      + 'saved with kubectl get sidecarsets,podunavailablebudgets,namespaces,deployments,clonesets,... -A -o json > FILE\n'],
  ])('usage and input errors: exit 1 with one line: %j', (argv, line) => {
    expect(run(argv)).toEqual({ code: 1, out: '', err: line });
  });

  test('a policy the API server refuses is an input error naming its file', () => {
    const bad = write(tmp(), 'platform.k8s.yaml', [{ ...sidecarSet('logging'), spec: { selector: { matchLabels: LOGGING }, containers: [{ image: 'no-name' }] } }]);
    expect(run(['fleet', '--policies', bad, '--live', live]).err).toBe(
      `cdk8s-kruise fleet: ${path.join(bad, 'platform.k8s.yaml')}: SidecarSet "logging" is refused by the cluster: spec.containers[0].name: (unset) must consist of lowercase letters, digits and '-', starting and ending with a letter or digit; use a DNS-1123 label; fix it where it is written\n`);
  });

  test('--openkruise and --rollouts: the policies are judged by the release the clusters run', () => {
    const resizeBudget = {
      apiVersion: 'policy.kruise.io/v1alpha1',
      kind: 'PodUnavailableBudget',
      metadata: { name: 'api', namespace: 'billing', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,RESIZE' } },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'api' } } },
    };
    const dir = write(tmp(), 'platform.k8s.yaml', [resizeBudget]);
    expect(run(['fleet', '--policies', dir, '--live', live]).code).toBe(0);
    expect(run(['fleet', '--policies', dir, '--live', live, '--openkruise', '1.8']).err).toBe(
      `cdk8s-kruise fleet: ${path.join(dir, 'platform.k8s.yaml')}: PodUnavailableBudget "api" is refused by the cluster: metadata.annotations["kruise.io/pub-protect-operations"]: "DELETE,RESIZE" `
      + 'has the item "RESIZE", an operation the budget does not protect, which OpenKruise accepts from 1.9; the target is 1.8 (given with --openkruise); '
      + 'list UPDATE, DELETE or EVICT separated by commas without spaces; fix it where it is written\n');
    expect(run(['fleet', '--policies', dir, '--live', live, '--rollouts', '0.4']).err).toBe(
      'cdk8s-kruise fleet: --rollouts: Kruise Rollouts 0.4 is not a line this library models; give one of 0.5 (0.5.0 to 0.5.5) or 0.6 (0.6.0 to 0.6.2) (a line stands for its newest release)\n');
  });

  test('openKruise and kruiseRollouts of FleetCheckPaths and FleetCheckInput: the same judgement, the messages naming the fields', () => {
    const resizeBudget = {
      apiVersion: 'policy.kruise.io/v1alpha1',
      kind: 'PodUnavailableBudget',
      metadata: { name: 'api', namespace: 'billing', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,RESIZE' } },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'api' } } },
    };
    const dir = write(tmp(), 'platform.k8s.yaml', [resizeBudget]);
    const refusal = (file: string) => `${file}: PodUnavailableBudget "api" is refused by the cluster: metadata.annotations["kruise.io/pub-protect-operations"]: "DELETE,RESIZE" `
      + 'has the item "RESIZE", an operation the budget does not protect, which OpenKruise accepts from 1.9; the target is 1.8 (given with openKruise); '
      + 'list UPDATE, DELETE or EVICT separated by commas without spaces; fix it where it is written';
    expect(FleetCheck.fromPaths({ policies: [dir], live: [live] }).refused).toBe(false);
    expect(() => FleetCheck.fromPaths({ policies: [dir], live: [live], openKruise: '1.8' })).toThrow(refusal(path.join(dir, 'platform.k8s.yaml')));
    expect(() => FleetCheck.fromPaths({ policies: [dir], live: [live], kruiseRollouts: '0.4' })).toThrow(
      'kruiseRollouts: Kruise Rollouts 0.4 is not a line this library models; give one of 0.5 (0.5.0 to 0.5.5) or 0.6 (0.6.0 to 0.6.2) (a line stands for its newest release)');
    expect(() => FleetCheck.run({ policies: [resizeBudget], sources: [], openKruise: '1.8' })).toThrow(refusal('policies'));
  });

  test('two sources of one name, and bad YAML', () => {
    expect(run(['fleet', '--policies', platform, '--workloads', `a=${billing}`, '--live', `a=${live}`]).err).toBe("cdk8s-kruise fleet: --live: two sources are named 'a'; name them apart with --live NAME=PATH\n");
    const bad = write(tmp(), 'bad.yaml', []);
    fs.writeFileSync(path.join(bad, 'bad.yaml'), 'kind: [\n');
    expect(run(['fleet', '--policies', bad, '--live', live]).err).toMatch(/^cdk8s-kruise fleet: .*bad\.yaml:\d+: not valid YAML/);
  });

  test('what does not read is reported first, before what the check finds wrong in what it read', () => {
    const refused = { ...sidecarSet('logging'), spec: { selector: { matchLabels: LOGGING }, containers: [{ image: 'no-name' }] } };
    const badPolicies = write(tmp(), 'platform.k8s.yaml', [refused]);
    const missing = '--workloads \'/nonexistent-w\' does not exist; pass a synth output folder (e.g. dist) or a manifest file';
    // a policy the cluster refuses, the release flags: after every source was read
    expect(run(['fleet', '--policies', badPolicies, '--workloads', `a=${billing}`, '--workloads', 'b=/nonexistent-w']).err).toBe(`cdk8s-kruise fleet: ${missing}\n`);
    expect(run(['fleet', '--policies', platform, '--rollouts', '0.4', '--workloads', 'b=/nonexistent-w']).err).toBe(`cdk8s-kruise fleet: ${missing}\n`);
    // a source's own policy that the cluster refuses, then a source that does not parse
    const own = write(tmp(), 'app.k8s.yaml', [refused]);
    const bad = write(tmp(), 'bad.yaml', []);
    fs.writeFileSync(path.join(bad, 'bad.yaml'), 'kind: [\n');
    expect(run(['fleet', '--policies', platform, '--workloads', `a=${own}`, '--workloads', `b=${bad}`]).err).toMatch(/^cdk8s-kruise fleet: .*bad\.yaml:\d+: not valid YAML/);
    // and with every source read, the first source's refusal
    expect(run(['fleet', '--policies', platform, '--workloads', `a=${own}`, '--workloads', `b=${billing}`]).err).toBe(
      `cdk8s-kruise fleet: ${path.join(own, 'app.k8s.yaml')}: SidecarSet "logging" is refused by the cluster: spec.containers[0].name: (unset) must consist of lowercase letters, digits and '-', starting and ending with a letter or digit; use a DNS-1123 label; fix it where it is written\n`);
  });

  test('--help', () => {
    const r = run(['fleet', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: cdk8s-kruise fleet --policies PATH/);
    expect(run(['--help']).out).toMatch(/^usage: cdk8s-kruise COMMAND \[options\]\n\ncommands:\n {2}plan {3}.*\n {2}fleet  /);
  });
});
