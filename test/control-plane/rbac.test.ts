/**
 * RBAC as rule sets: every (apiGroup, resource, verb, resourceName) a role
 * grants, compared with the chart's roles, for the defaults and for every
 * option that changes RBAC. Never wider than the chart.
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

test('defaults grant exactly the chart rule sets, role by role', () => {
  const ours = roles(synth());
  expect([...ours.keys()].sort()).toEqual(Object.keys(CHART_RULES).sort());
  for (const [ref, lines] of Object.entries(CHART_RULES)) {
    expect([...ours.get(ref)!].sort()).toEqual([...grantsOfLines(lines)].sort());
  }
});

test('the chart conditional rule (StatefulSetAutoResizePVCGate) matches the chart', () => {
  const ours = roles(synth({ featureGates: { StatefulSetAutoResizePVCGate: true } }));
  const expected = grantsOfLines([...CHART_RULES['ClusterRole/kruise-manager-role'], chartStorageClasses]);
  expect([...ours.get('ClusterRole/kruise-manager-role')!].sort()).toEqual([...expected].sort());
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
      const chart = grantsOfLines([...CHART_RULES[ref], ...(ref === 'ClusterRole/kruise-manager-role' ? [chartStorageClasses] : [])]);
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
