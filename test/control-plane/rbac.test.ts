/**
 * RBAC as rule sets: every (apiGroup, resource, verb, resourceName) a role
 * grants, compared with the chart's roles, for the defaults and for every
 * option that changes RBAC. Never wider than the chart, except for read access
 * to StorageClasses, which the chart grants only with
 * StatefulSetAutoResizePVCGate and the v1.9.0 manager watches whatever the gate.
 */
import { CHART_RULES, synth } from './_chart';
import { WebhookCertificates } from '../../src';

/** Atomic grants of a list of rules in the test notation. */
function grantsOfLines(lines: string[]): Set<string> {
  const out = new Set<string>();
  for (const line of lines) {
    const [groups, resources, verbs, names] = line.split(' | ');
    for (const g of groups.split(',')) {
      for (const r of resources.split(',')) {
        for (const v of verbs.split(',')) {
          for (const n of (names ?? '*').split(',')) out.add(`${g}/${r}/${v}/${n}`);
        }
      }
    }
  }
  return out;
}

/** Atomic grants of synthesized rules. */
function grantsOf(rules: any[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    for (const g of r.apiGroups) {
      for (const res of r.resources) {
        for (const v of r.verbs) {
          for (const n of r.resourceNames ?? ['*']) out.add(`${g}/${res}/${v}/${n}`);
        }
      }
    }
  }
  return out;
}

/** Every role of a render, by `Kind/name`. */
function roles(all: any[]): Map<string, Set<string>> {
  return new Map(all.filter(m => m.kind === 'Role' || m.kind === 'ClusterRole').map(m => [`${m.kind}/${m.metadata.name}`, grantsOf(m.rules)]));
}

const chartStorageClasses = 'storage.k8s.io | storageclasses | get,list,watch';

/** The chart's rules of a role, plus the StorageClass read we always grant the manager. */
function expectedLines(ref: string): string[] {
  return [...CHART_RULES[ref], ...(ref === 'ClusterRole/kruise-manager-role' ? [chartStorageClasses] : [])];
}

/** Whether a grant is covered by a set of grants, honouring `*` in the covering set (apiGroup, resource, verb, name). */
function covered(grant: string, by: Set<string>): boolean {
  const [g, r, v, n] = grant.split('/').length === 4 ? grant.split('/') : splitGrant(grant);
  for (const gg of [g, '*']) {
    for (const rr of [r, '*']) {
      for (const vv of [v, '*']) {
        for (const nn of [n, '*']) {
          if (by.has(`${gg}/${rr}/${vv}/${nn}`)) return true;
        }
      }
    }
  }
  return false;
}

/** Split a grant whose resource contains a slash (a subresource). */
function splitGrant(grant: string): string[] {
  const parts = grant.split('/');
  return [parts[0], parts.slice(1, parts.length - 2).join('/'), parts[parts.length - 2], parts[parts.length - 1]];
}

test('defaults grant exactly the chart rule sets, role by role, plus the StorageClass read of the manager', () => {
  const ours = roles(synth());
  expect([...ours.keys()].sort()).toEqual(Object.keys(CHART_RULES).sort());
  for (const ref of Object.keys(CHART_RULES)) {
    expect({ ref, grants: [...ours.get(ref)!].sort() }).toEqual({ ref, grants: [...grantsOfLines(expectedLines(ref))].sort() });
  }
});

test('the manager reads StorageClasses with or without StatefulSetAutoResizePVCGate (its StatefulSet controller watches them either way)', () => {
  const read = ['get', 'list', 'watch'].map(v => `storage.k8s.io/storageclasses/${v}/*`);
  for (const featureGates of [{}, { StatefulSetAutoResizePVCGate: true }, { StatefulSetAutoResizePVCGate: false }]) {
    const grants = roles(synth({ featureGates })).get('ClusterRole/kruise-manager-role')!;
    expect({ featureGates, missing: read.filter(g => !grants.has(g)) }).toEqual({ featureGates, missing: [] });
    expect([...grants].filter(g => g.startsWith('storage.k8s.io/')).sort()).toEqual([...read].sort());
  }
});

test('external certificates drop the certs role, as the chart does', () => {
  const ours = roles(synth({ certificates: WebhookCertificates.certManager() }));
  expect(ours.has('ClusterRole/kruise-certs-role')).toBe(false);
});

test('no option makes any role wider than the chart', () => {
  const renders = [
    synth(),
    synth({ namespace: 'openkruise' }),
    synth({ roleListGroups: ['apps'] }),
    synth({ featureGates: { StatefulSetAutoResizePVCGate: true, ResourceDistributionGate: true, PodWebhook: false, KruiseDaemon: false } }),
    synth({ certificates: WebhookCertificates.external() }),
    synth({ validateEphemeralJobs: true, manager: { hostNetwork: true }, daemon: { privileged: true } }),
  ];
  for (const all of renders) {
    for (const [ref, grants] of roles(all)) {
      const chart = grantsOfLines(expectedLines(ref));
      const wider = [...grants].filter(g => !covered(g, chart));
      expect({ ref, wider }).toEqual({ ref, wider: [] });
    }
  }
});

test('roleListGroups narrows the list grant', () => {
  const grants = roles(synth({ roleListGroups: ['apps', 'apps.kruise.io'] })).get('ClusterRole/kruise-manager-role')!;
  expect(grants.has('*/*/list/*')).toBe(false);
  expect(grants.has('apps/*/list/*')).toBe(true);
  expect(grants.has('apps.kruise.io/*/list/*')).toBe(true);
});
