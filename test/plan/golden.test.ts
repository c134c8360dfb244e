import { rolloutErrors } from '../../src/admission/rollout';
import { UpdatePlan } from '../../src/plan';
import { validateManifest } from '../../src/validation/schemas';
import { PLAN_GOLDEN, PLAN_ROLLOUT_GOLDEN, GoldenCase } from '../fixtures/plan-golden';

const WORKLOAD_FIELDS = [
  'kind', 'name', 'subset', 'updateType', 'podsUpdated', 'podsOnOldRevision', 'batches', 'forcedBy', 'rejectedField', 'rejectedBy',
  'imageChanges', 'metadataChanged', 'envFromMetadataRestarts', 'resizedContainers', 'updatedOrdinals', 'keptOrdinals',
] as const;
const SIDECAR_FIELDS = ['name', 'updateType', 'inPlaceImages', 'newPodsOnly', 'selectedWorkloads', 'podsUpdated', 'podsOnOldRevision', 'batches'] as const;
const RELEASE_FIELDS = ['rollout', 'style', 'inEffect', 'racesController', 'stallsAtStep'] as const;
const STEP_FIELDS = ['podsOnNewRevision', 'podsOnOldRevision', 'ordinals', 'traffic', 'matches', 'pauseSeconds', 'manualApproval', 'stalls'] as const;
const ROLLOUT_FIELDS = ['name', 'change', 'rejectedField'] as const;

function pick(o: any, fields: readonly string[]): any {
  const out: any = {};
  for (const f of fields) if (o[f] !== undefined) out[f] = o[f];
  return out;
}

/** A workload entry's compared fields, with its Rollout release and steps. */
function workload(w: any): any {
  const out = pick(w, WORKLOAD_FIELDS);
  if (w.rollout) out.rollout = { ...pick(w.rollout, RELEASE_FIELDS), steps: w.rollout.steps.map((s: any) => pick(s, STEP_FIELDS)) };
  return out;
}

const ALL = [...PLAN_GOLDEN, ...PLAN_ROLLOUT_GOLDEN];

test('the golden set has at least 20 cases with unique ids, and at least 15 Rollout cases', () => {
  expect(PLAN_GOLDEN.length).toBeGreaterThanOrEqual(20);
  expect(PLAN_ROLLOUT_GOLDEN.length).toBeGreaterThanOrEqual(15);
  expect(new Set(ALL.map(c => c.id)).size).toBe(ALL.length);
});

test.each(ALL.map(c => [c.id, c] as [string, GoldenCase]))('golden %s', (_id, c) => {
  const report = UpdatePlan.compare(c.old, c.new, { featureGates: c.featureGates, daemonSetNodes: c.daemonSetNodes });
  expect({
    workloads: report.workloads.map(workload),
    sidecarSets: report.sidecarSets.map(s => pick(s, SIDECAR_FIELDS)),
    rollouts: report.rollouts.map(r => pick(r, ROLLOUT_FIELDS)),
    rejected: report.rejected,
    unchanged: report.unchanged,
  }).toEqual({
    workloads: c.expect.workloads.map(workload),
    sidecarSets: c.expect.sidecarSets.map(s => pick(s, SIDECAR_FIELDS)),
    rollouts: (c.expect.rollouts ?? []).map(r => pick(r, ROLLOUT_FIELDS)),
    rejected: c.expect.rejected,
    unchanged: c.expect.unchanged,
  });
  expect(report.releaseConflict).toBe(false);
  // every rejection names the field and says what to do
  for (const w of report.workloads.filter(x => x.updateType === 'Rejected')) {
    expect(w.rejection).toContain(w.rejectedField!);
    expect(w.rejection).toMatch(/; \S/);
  }
});

test('the golden manifests are complete objects in namespace default (or cluster-scoped SidecarSets)', () => {
  for (const c of ALL) {
    for (const m of [...c.old, ...c.new]) {
      expect(m.apiVersion).toMatch(/^(apps\.kruise\.io\/v1(alpha1|beta1)|rollouts\.kruise\.io\/v1(alpha1|beta1)|apps\/v1|v1|networking\.k8s\.io\/v1)$/);
      expect(m.metadata.name).toMatch(/^[a-z0-9-]+$/);
      if (m.kind === 'SidecarSet') expect(m.metadata.namespace).toBeUndefined();
      else expect(m.metadata.namespace).toBe('default');
      if (!['Rollout', 'Service', 'Ingress'].includes(m.kind)) expect(m.spec.selector.matchLabels).toBeDefined();
    }
  }
});

test('every Rollout of the Rollout cases passes the CRD schema and the Rollout webhook rules as synth checks them', () => {
  for (const c of PLAN_ROLLOUT_GOLDEN) {
    for (const m of [...c.old, ...c.new].filter(x => x.kind === 'Rollout')) {
      expect({ id: c.id, schema: validateManifest(m), webhook: rolloutErrors(m) }).toEqual({ id: c.id, schema: [], webhook: [] });
    }
  }
});
