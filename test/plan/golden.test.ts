import { UpdatePlan } from '../../src/plan';
import { PLAN_GOLDEN, GoldenCase } from '../fixtures/plan-golden';

const WORKLOAD_FIELDS = [
  'kind', 'name', 'subset', 'updateType', 'podsUpdated', 'podsOnOldRevision', 'batches', 'forcedBy', 'rejectedField', 'rejectedBy',
  'imageChanges', 'metadataChanged', 'envFromMetadataRestarts', 'resizedContainers', 'updatedOrdinals', 'keptOrdinals',
] as const;
const SIDECAR_FIELDS = ['name', 'updateType', 'inPlaceImages', 'newPodsOnly', 'selectedWorkloads', 'podsUpdated', 'podsOnOldRevision', 'batches'] as const;

function pick(o: any, fields: readonly string[]): any {
  const out: any = {};
  for (const f of fields) if (o[f] !== undefined) out[f] = o[f];
  return out;
}

test('the golden set has at least 20 cases with unique ids', () => {
  expect(PLAN_GOLDEN.length).toBeGreaterThanOrEqual(20);
  expect(new Set(PLAN_GOLDEN.map(c => c.id)).size).toBe(PLAN_GOLDEN.length);
});

test.each(PLAN_GOLDEN.map(c => [c.id, c] as [string, GoldenCase]))('golden %s', (_id, c) => {
  const report = UpdatePlan.compare(c.old, c.new, { featureGates: c.featureGates });
  expect({
    workloads: report.workloads.map(w => pick(w, WORKLOAD_FIELDS)),
    sidecarSets: report.sidecarSets.map(s => pick(s, SIDECAR_FIELDS)),
    rejected: report.rejected,
    unchanged: report.unchanged,
  }).toEqual({
    workloads: c.expect.workloads.map(w => pick(w, WORKLOAD_FIELDS)),
    sidecarSets: c.expect.sidecarSets.map(s => pick(s, SIDECAR_FIELDS)),
    rejected: c.expect.rejected,
    unchanged: c.expect.unchanged,
  });
  // every rejection names the field and says what to do
  for (const w of report.workloads.filter(x => x.updateType === 'Rejected')) {
    expect(w.rejection).toContain(w.rejectedField!);
    expect(w.rejection).toMatch(/; \S/);
  }
});

test('the golden manifests are complete objects in namespace default (or cluster-scoped SidecarSets)', () => {
  for (const c of PLAN_GOLDEN) {
    for (const m of [...c.old, ...c.new]) {
      expect(m.apiVersion).toMatch(/^apps\.kruise\.io\/v1(alpha1|beta1)$/);
      expect(m.metadata.name).toMatch(/^[a-z0-9-]+$/);
      if (m.kind === 'SidecarSet') expect(m.metadata.namespace).toBeUndefined();
      else expect(m.metadata.namespace).toBe('default');
      expect(m.spec.selector.matchLabels).toBeDefined();
    }
  }
});
