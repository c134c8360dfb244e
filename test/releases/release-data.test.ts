/**
 * Every listed release holds the data it needs: a version and an image tag,
 * in order within its line and across lines; what differs in it refers to
 * something real (a webhook rule of that release in a kind's
 * `releaseRules`, a gate of its line, a known failure that it fixes), and
 * every patch-level rule of src/admission is listed on its release. So the
 * next patch release is one entry, and an entry that names what does not
 * exist fails here.
 */
import * as semver from 'semver';
import { admissionModules } from '../../src/admission';
import { CLUSTER_FAILURES, fixedIn, hasFailure } from '../../src/releases/failures';
import {
  LINES, Product, ReleaseEntry, gateDefaults, linesOf, parseRelease, releaseEntries, releaseOfLine, releaseOrder,
} from '../../src/releases/registry';

const PRODUCTS: Product[] = ['openkruise', 'rollouts'];
const entries = PRODUCTS.flatMap(product => releaseEntries(product).map(x => ({ product, ...x })));

/** `Kind: what` of every webhook rule of a kind, by the release of the change. */
function rulesByRelease(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of admissionModules()) {
    for (const r of m.releaseRules ?? []) {
      const key = `${m.group === 'rollouts.kruise.io' ? 'rollouts' : 'openkruise'} ${r.release}`;
      out.set(key, [...(out.get(key) ?? []), `${m.kind}: ${r.what}`]);
    }
  }
  return out;
}

describe.each(entries.map(e => [`${e.product} ${e.entry.version}`, e] as const))('%s', (_name, { product, line, entry }) => {
  test('a version of its line and the image tag of that release', () => {
    expect(entry.version).toMatch(new RegExp(`^${line.line.replace('.', '\\.')}\\.\\d+$`));
    expect(entry.imageTag).toBe(`v${entry.version}`);
    expect(parseRelease(product, entry.version, 'test').version).toBe(entry.version);
  });

  test('what differs in it is real', () => {
    const rules = rulesByRelease().get(`${product} ${entry.version}`) ?? [];
    for (const r of entry.rules ?? []) expect(rules).toContain(r);
    const release = parseRelease(product, entry.version, 'test');
    const before = releaseOrder(product)[releaseOrder(product).indexOf(entry.version) - 1];
    for (const g of entry.gates ?? []) {
      expect(gateDefaults(release)[g]).toBeDefined();
      // it appears in this release: the release before does not have it
      if (before !== undefined && releaseEntries(product).find(x => x.entry.version === before)!.line === line) {
        expect(gateDefaults(parseRelease(product, before, 'test'))[g]).toBeUndefined();
      }
    }
    for (const id of entry.fixes ?? []) {
      const f = CLUSTER_FAILURES.find(x => x.id === id);
      expect(f).toBeDefined();
      expect(f!.product).toBe(product);
      expect(fixedIn(f!)).toBe(entry.version);
      expect(hasFailure(release, f!)).toBe(false);
      if (before !== undefined) expect(hasFailure(parseRelease(product, before, 'test'), f!)).toBe(true);
    }
  });
});

test('releases are in order: within a line and across lines, oldest first; a line stands for its last', () => {
  for (const product of PRODUCTS) {
    const versions = releaseOrder(product);
    expect([...versions].sort(semver.compare)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    for (const l of linesOf(product)) {
      expect(releaseOfLine(product, l.line).version).toBe(l.releases[l.releases.length - 1].version);
    }
  }
  expect(LINES.every(l => l.releases.length > 0)).toBe(true);
});

test('every webhook rule of a patch release (x.y.z) is listed on that release', () => {
  for (const [key, rules] of rulesByRelease()) {
    const [product, release] = key.split(' ') as [Product, string];
    if (release.split('.').length !== 3) continue;
    const entry: ReleaseEntry | undefined = releaseEntries(product).find(x => x.entry.version === release)?.entry;
    expect([release, entry?.rules ?? []]).toEqual([release, expect.arrayContaining(rules)]);
  }
  // the one there is today: 1.8.3's PodProbeMarker rule
  expect(rulesByRelease().get('openkruise 1.8.3')).toEqual(['PodProbeMarker: a host in a tcpSocket probe']);
});

test('every known failure starts at a real release, and the release that fixes it comes after', () => {
  for (const f of CLUSTER_FAILURES) {
    expect(releaseOrder(f.product)).toContain(f.since);
    const fix = fixedIn(f);
    if (fix !== undefined) expect(semver.gt(fix, f.since)).toBe(true);
    expect(f.sources.length).toBeGreaterThan(0);
    if (f.gate) expect(gateDefaults(parseRelease(f.product, f.since, 'test'))[f.gate]).toBe(false);
  }
  expect(new Set(CLUSTER_FAILURES.map(f => f.id)).size).toBe(CLUSTER_FAILURES.length);
  // every failure a release fixes is listed once, on one release
  const fixes = entries.flatMap(e => e.entry.fixes ?? []);
  expect(new Set(fixes).size).toBe(fixes.length);
});

test('a line stands for one frozen release object, so what is worked out per release is worked out once', () => {
  const a = releaseOfLine('openkruise', '1.8');
  expect(releaseOfLine('openkruise', '1.8')).toBe(a);
  expect(releaseOfLine('rollouts', '0.6')).not.toBe(a);
  expect(Object.isFrozen(a)).toBe(true);
  expect(() => { (a as any).version = '1.8.0'; }).toThrow(TypeError);
});

test('1.9.1 is v1.9.0 with the fix of the suffixed-minor panic; the 1.9 line stands for it', () => {
  const e = releaseEntries('openkruise').find(x => x.entry.version === '1.9.1')!.entry;
  expect(e).toEqual({ version: '1.9.1', imageTag: 'v1.9.1', fixes: ['suffixed-minor-panic'] });
  expect(releaseOfLine('openkruise', '1.9').version).toBe('1.9.1');
  expect(gateDefaults(parseRelease('openkruise', '1.9.1', 'x'))).toEqual(gateDefaults(parseRelease('openkruise', '1.9.0', 'x')));
});

test('a gate that appears within a line is in the releases from its entry on (Kruise Rollouts 0.5.4)', () => {
  expect(gateDefaults(parseRelease('rollouts', '0.5.3', 'x')).KeepWorkloadPausedOnRolloutDeletion).toBeUndefined();
  expect(gateDefaults(parseRelease('rollouts', '0.5.4', 'x')).KeepWorkloadPausedOnRolloutDeletion).toBe(false);
  expect(gateDefaults(parseRelease('rollouts', '0.5', 'x')).KeepWorkloadPausedOnRolloutDeletion).toBe(false);
});
