/**
 * The ResourceDistribution admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, JsonPatch, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as YAML from 'yaml';
import { DistributedResource, ResourceDistribution } from '../../src';
import { KruiseInclude } from '../../src/include';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/resource-distribution';
import { ENTRY_PATHS, constructPathOn, describeCorpus, expectCase, synthOn } from '../util/admission';

/**
 * Whether the shared harness's included-YAML path reads the case back as written: it writes YAML 1.2,
 * cdk8s reads YAML 1.1, where a key such as "." becomes NaN.
 */
const roundTrips = (m: Record<string, any>): boolean => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-rt-'));
  const file = path.join(dir, 'o.yaml');
  fs.writeFileSync(file, YAML.stringify(m));
  return JSON.stringify(Yaml.load(file)[0]) === JSON.stringify(m);
};

/** The included-YAML path with the file written as YAML 1.1 (what cdk8s reads). */
const includeAs11 = (m: Record<string, any>): string => {
  const chart = Testing.chart();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-case-'));
  const file = path.join(dir, 'objects.yaml');
  fs.writeFileSync(file, YAML.stringify(m, { version: '1.1' }));
  new KruiseInclude(chart, 'obj', { url: file });
  try {
    Testing.synth(chart);
    return '';
  } catch (e: any) {
    return String(e.message);
  }
};

/** expectCase, with the included-YAML path written as YAML 1.1 when the harness's YAML 1.2 would change the case. */
function expectCaseOnEveryPath(c: typeof cases[number]): void {
  if (roundTrips(c.manifest)) return expectCase(c);
  for (const p of ENTRY_PATHS) {
    const error = p === 'include' ? includeAs11(c.manifest) : synthOn(p, c.manifest);
    expect({ path: p, refused: error !== '' }).toEqual({ path: p, refused: !c.allowed });
    if (!c.allowed) {
      expect(error).toContain(`[${constructPathOn(p)}`);
      expect(error).toContain(c.message!);
    }
  }
}

const KIND = 'ResourceDistribution';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

describe('the L2 refuses a distributed Secret the API server would refuse', () => {
  const distribute = (make: (chart: any) => kplus.Secret): string => {
    const chart = Testing.chart();
    new ResourceDistribution(chart, 'rd', { metadata: { name: 'creds' }, resource: DistributedResource.fromSecret(make(chart)), allNamespaces: true });
    try {
      Testing.synth(chart);
      return '';
    } catch (e: any) {
      return String(e.message);
    }
  };

  test('a kubernetes.io/tls Secret without tls.key', () => {
    expect(distribute(c => new kplus.Secret(c, 's', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'PEM' } })))
      .toContain('[test/rd] ResourceDistribution "creds" (apps.kruise.io/v1alpha1) spec.resource.data: ["tls.crt"] has no "tls.key" key, which a kubernetes.io/tls Secret needs (the API server refuses it); add the PEM certificate and key (kplus.TlsSecret sets both) under data (base64) or stringData');
  });

  test('a data key starting with ".."', () => {
    expect(distribute(c => new kplus.Secret(c, 's', { metadata: { name: 'k' }, stringData: { '..2024': 'v' } })))
      .toContain('[test/rd] ResourceDistribution "creds" (apps.kruise.io/v1alpha1) spec.resource.stringData["..2024"]: "..2024" is not a valid data key (it must not start with \'..\'); use letters, digits, \'-\', \'_\' or \'.\'');
  });

  test('a kubernetes.io/dockerconfigjson Secret whose config is not JSON', () => {
    expect(distribute(c => new kplus.Secret(c, 's', { metadata: { name: 'pull' }, type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': 'auths:' } })))
      .toContain('[test/rd] ResourceDistribution "creds" (apps.kruise.io/v1alpha1) spec.resource.stringData[".dockerconfigjson"]: "<6 characters, not shown>" is not a JSON object, which a kubernetes.io/dockerconfigjson Secret needs; give the whole Docker config file as JSON');
  });

  test('the typed Secrets of cdk8s-plus pass', () => {
    expect(distribute(c => new kplus.TlsSecret(c, 's', { metadata: { name: 'tls' }, tlsCert: 'PEM', tlsKey: 'KEY' }))).toBe('');
    expect(distribute(c => new kplus.BasicAuthSecret(c, 's', { metadata: { name: 'ba' }, username: 'u', password: 'p' }))).toBe('');
    expect(distribute(c => new kplus.SshAuthSecret(c, 's', { metadata: { name: 'ssh' }, sshPrivateKey: 'KEY' }))).toBe('');
  });

  test('the value of a Secret is never printed', () => {
    const error = distribute(c => {
      const s = new kplus.Secret(c, 's', { metadata: { name: 'raw' } });
      ApiObject.of(s).addJsonPatch(JsonPatch.add('/data', { token: 'hunter2!' }));
      return s;
    });
    expect(error).toContain('[test/rd] ResourceDistribution "creds" (apps.kruise.io/v1alpha1) spec.resource.data["token"]: "<8 characters, not shown>" is not base64-encoded');
    expect(error).not.toContain('hunter2');
  });
});
