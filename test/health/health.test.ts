import { App, Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { describeWithEngines, EngineCase, judge } from './engines';
import { HEALTH_FIXTURES } from './fixtures';
import { ArgoCdHealthChecks, KruiseActions, KruiseHealthChecks } from '../../src';
import { main } from '../../src/cli';
import { FLUX_STATUS } from '../../src/health/cel';
import { KIND_RULES } from '../../src/health/kinds';

const KINDS = [
  'apps.kruise.io/CloneSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/DaemonSet', 'apps.kruise.io/SidecarSet',
  'apps.kruise.io/UnitedDeployment', 'apps.kruise.io/BroadcastJob', 'apps.kruise.io/AdvancedCronJob', 'apps.kruise.io/ImagePullJob',
  'apps.kruise.io/ImageListPullJob', 'apps.kruise.io/EphemeralJob', 'apps.kruise.io/ContainerRecreateRequest',
  'apps.kruise.io/ResourceDistribution', 'apps.kruise.io/WorkloadSpread', 'apps.kruise.io/PersistentPodState',
  'apps.kruise.io/PodProbeMarker', 'policy.kruise.io/PodUnavailableBudget', 'rollouts.kruise.io/Rollout', 'rollouts.kruise.io/TrafficRouting',
];

function run(args: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(args, { out: t => { out += t; }, err: t => { err += t; } });
  return { code, out, err };
}

describe('Argo CD health scripts', () => {
  test('one argocd-cm key per kind, named as Argo CD reads them (resource.customizations.health.<group>_<Kind>)', () => {
    const data = KruiseHealthChecks.argoCdConfigData();
    expect(Object.keys(data)).toEqual(KINDS.map(k => `resource.customizations.health.${k.replace('/', '_')}`));
  });

  test('the scripts call no Lua library (argocd-cm scripts run without useOpenLibs)', () => {
    for (const [key, script] of Object.entries(KruiseHealthChecks.argoCdConfigData())) {
      expect({ key, libraries: script.match(/\b(string|math|os|io|coroutine|debug)\.\w+/g) }).toEqual({ key, libraries: null });
    }
  });

  test('ArgoCdHealthChecks writes argocd-cm in Argo CD\'s namespace with the labels Argo CD watches', () => {
    const chart = Testing.chart();
    new ArgoCdHealthChecks(chart, 'health');
    const [cm] = Testing.synth(chart);
    expect(cm.apiVersion).toBe('v1');
    expect(cm.kind).toBe('ConfigMap');
    expect(cm.metadata).toEqual({ name: 'argocd-cm', namespace: 'argocd', labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } });
    expect(cm.data).toEqual({ ...KruiseHealthChecks.argoCdConfigData(), ...KruiseActions.argoCdConfigData() });
  });

  test('ArgoCdHealthChecks namespace prop', () => {
    const chart = Testing.chart();
    new ArgoCdHealthChecks(chart, 'health', { namespace: 'gitops' });
    expect(Testing.synth(chart)[0].metadata.namespace).toBe('gitops');
  });

  test('the ConfigMap is written the same on every synth (GitOps-safe)', () => {
    const synth = () => {
      const app = new App({ outdir: '/dev/null' });
      new ArgoCdHealthChecks(new Chart(app, 'argo'), 'health');
      return app.synthYaml();
    };
    expect(synth()).toBe(synth());
  });
});

describe('Flux healthCheckExprs', () => {
  test('one entry per group and kind (Flux refuses two for one GroupKind), with the apiVersion the library writes', () => {
    const exprs = KruiseHealthChecks.fluxHealthCheckExprs();
    expect(exprs.map(e => `${e.apiVersion.split('/')[0]}/${e.kind}`)).toEqual(KINDS);
    expect(exprs.find(e => e.kind === 'CloneSet')!.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(exprs.find(e => e.kind === 'StatefulSet')!.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(exprs.find(e => e.kind === 'Rollout')!.apiVersion).toBe('rollouts.kruise.io/v1beta1');
  });

  test('kinds whose controller may write no status never read it in CEL (an unset top-level field fails CEL)', () => {
    for (const rule of KIND_RULES.filter(r => r.statusRequired === false)) {
      const e = KruiseHealthChecks.fluxHealthCheckExprs().find(x => x.kind === rule.kind)!;
      expect({ kind: rule.kind, current: e.current, failed: e.failed }).toEqual({ kind: rule.kind, current: 'true', failed: undefined });
    }
  });

  test('a failed expression only for kinds that can fail', () => {
    const withFailed = KruiseHealthChecks.fluxHealthCheckExprs().filter(e => e.failed).map(e => e.kind);
    expect(withFailed).toEqual(['CloneSet', 'BroadcastJob', 'ImagePullJob', 'ImageListPullJob', 'EphemeralJob', 'ContainerRecreateRequest', 'ResourceDistribution']);
  });
});

describe('cdk8s-kruise health', () => {
  test('--argocd prints the argocd-cm ConfigMap ArgoCdHealthChecks writes', () => {
    const r = run(['health', '--argocd']);
    expect(r).toMatchObject({ code: 0, err: '' });
    const chart = Testing.chart();
    new ArgoCdHealthChecks(chart, 'health');
    expect(parse(r.out)).toEqual(Testing.synth(chart)[0]);
  });

  test('--argocd --namespace', () => {
    const r = run(['health', '--argocd', '--namespace', 'gitops']);
    expect(parse(r.out).metadata.namespace).toBe('gitops');
  });

  test('--flux prints spec.healthCheckExprs', () => {
    const r = run(['health', '--flux']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('# spec.healthCheckExprs of a Flux Kustomization (with wait: true)');
    const docs = parseAllDocuments(r.out);
    expect(docs).toHaveLength(1);
    expect(docs[0].toJS()).toEqual({ healthCheckExprs: KruiseHealthChecks.fluxHealthCheckExprs() });
  });

  test('--help', () => {
    const r = run(['health', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: cdk8s-kruise health \(--argocd \[--namespace NS\] \[--no-actions\] \| --flux\)/);
  });

  test('usage errors name the fix', () => {
    expect(run(['health'])).toEqual({ code: 1, out: '', err: 'cdk8s-kruise health: give --argocd or --flux (cdk8s-kruise health --help)\n' });
    expect(run(['health', '--argocd', '--flux'])).toEqual({ code: 1, out: '', err: 'cdk8s-kruise health: give one of --argocd and --flux, not both (cdk8s-kruise health --help)\n' });
    expect(run(['health', '--flux', '--namespace', 'x'])).toEqual({
      code: 1,
      out: '',
      err: 'cdk8s-kruise health: --namespace x is Argo CD\'s namespace; Flux\'s healthCheckExprs go in the Kustomization you write, so leave it out with --flux (cdk8s-kruise health --help)\n',
    });
    expect(run(['health', '--argo'])).toEqual({
      code: 1,
      out: '',
      err: 'cdk8s-kruise health: Unknown option \'--argo\' (cdk8s-kruise health --help)\n',
    });
  });

  test('the program lists the command', () => {
    expect(run(['--help']).out).toContain('health    health checks of the OpenKruise kinds for Argo CD (argocd-cm) and Flux (healthCheckExprs) (cdk8s-kruise health --help)');
  });
});

const luaOf = (kind: string, apiVersion: string) =>
  KruiseHealthChecks.argoCdConfigData()[`resource.customizations.health.${apiVersion.split('/')[0]}_${kind}`];
const celOf = (kind: string) => KruiseHealthChecks.fluxHealthCheckExprs().find(e => e.kind === kind)!;
const caseOf = (id: string, object: { apiVersion: string; kind: string }): EngineCase =>
  ({ id, lua: luaOf(object.kind, object.apiVersion), cel: celOf(object.kind), object });

describeWithEngines('the rules judged by gopher-lua (as Argo CD runs it) and Flux\'s CEL evaluator', () => {
  const results = new Map(judge(HEALTH_FIXTURES.map(f => caseOf(f.name, f.object))).map(r => [r.id, r]));

  test.each(HEALTH_FIXTURES.map(f => [f.name, f] as const))('%s', (_name, f) => {
    const r = results.get(f.name)!;
    expect(r.argoError).toBeUndefined();
    expect(r.argo!.status).toBe(f.outcome);
    if (f.message !== undefined) expect(r.argo!.message).toBe(f.message);
    const rule = KIND_RULES.find(k => k.kind === f.object.kind)!;
    if (f.object.status === undefined && rule.statusRequired !== false) {
      // CEL cannot test an unset top-level field: Flux's evaluation fails, kstatus says Unknown and a Kustomization waits
      expect(r.fluxError).toMatch(/no such attribute\(s\): status/);
    } else {
      expect(r.fluxError).toBeUndefined();
      expect(r.flux).toBe(FLUX_STATUS[f.outcome]);
    }
  });

  test('every kind has a fixture', () => {
    expect(new Set(HEALTH_FIXTURES.map(f => f.object.kind))).toEqual(new Set([
      ...KIND_RULES.map(r => r.kind).filter(k => !['PersistentPodState', 'PodProbeMarker', 'TrafficRouting'].includes(k)),
    ]));
  });

  // The two engines are the oracle of each other: over any status the
  // controllers could write, Argo CD's outcome and kstatus's state match.
  const count = fc.nat({ max: 6 });
  const opt = (o: Record<string, unknown>, k: string, v: unknown) => (v === undefined || v === false ? o : { ...o, [k]: v });
  const partition = fc.oneof(fc.constant(undefined), fc.nat({ max: 7 }), fc.nat({ max: 100 }).map(n => `${n}%`), fc.constantFrom('050%', '12.5%', '101%'));
  const workloads = fc.oneof(
    fc.record({
      replicas: count, partition, paused: fc.boolean(), pods: count, updated: count, ua: count, expected: count, gen: fc.constantFrom(1, 2),
    }).map(v => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'p', generation: 2 },
      spec: { replicas: v.replicas, updateStrategy: opt(opt({}, 'partition', v.partition), 'paused', v.paused) },
      status: {
        observedGeneration: v.gen,
        replicas: v.pods,
        readyReplicas: v.pods,
        availableReplicas: v.pods,
        updatedReplicas: v.updated,
        updatedReadyReplicas: v.ua,
        ...(v.ua ? { updatedAvailableReplicas: v.ua } : {}),
        ...(v.expected ? { expectedUpdatedReplicas: v.expected } : {}),
      },
    })),
    fc.record({ partition, desired: count, updated: count, available: count, type: fc.constantFrom('RollingUpdate', 'OnDelete'), paused: fc.boolean() }).map(v => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      metadata: { name: 'p', generation: 1 },
      spec: { updateStrategy: { type: v.type, rollingUpdate: opt(opt({}, 'partition', v.partition), 'paused', v.paused) } },
      status: {
        observedGeneration: 1,
        currentNumberScheduled: v.desired,
        numberMisscheduled: 0,
        desiredNumberScheduled: v.desired,
        numberReady: v.available,
        updatedNumberScheduled: v.updated,
        ...(v.available ? { numberAvailable: v.available } : {}),
      },
    })),
    fc.record({ partition, matched: count, updated: count, ready: count, type: fc.constantFrom('RollingUpdate', 'NotUpdate') }).map(v => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'p', generation: 1 },
      spec: { updateStrategy: { type: v.type, ...(v.partition === undefined ? {} : { partition: v.partition }) } },
      status: opt({ observedGeneration: 1, matchedPods: v.matched, updatedPods: v.updated, readyPods: v.ready }, 'updatedReadyPods', v.ready || undefined),
    })),
    fc.record({ replicas: count, partition: fc.nat({ max: 7 }), pods: count, updated: count, available: count, onDelete: fc.boolean() }).map(v => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'p', generation: 1 },
      spec: { replicas: v.replicas, updateStrategy: v.onDelete ? { type: 'OnDelete' } : { type: 'RollingUpdate', rollingUpdate: { partition: v.partition } } },
      status: { observedGeneration: 1, replicas: v.pods, readyReplicas: v.available, availableReplicas: v.available, updatedReplicas: v.updated },
    })),
  );

  test('property: Argo CD and Flux agree on any workload status', () => {
    const objects = fc.sample(workloads, { numRuns: 400, seed: 32 });
    const results2 = judge(objects.map((o, i) => caseOf(String(i), o)));
    for (const r of results2) {
      const o = objects[Number(r.id)];
      expect({ o, argoError: r.argoError, fluxError: r.fluxError }).toEqual({ o, argoError: undefined, fluxError: undefined });
      expect({ o, flux: r.flux }).toEqual({ o, flux: FLUX_STATUS[r.argo!.status as keyof typeof FLUX_STATUS] });
    }
  });
});
