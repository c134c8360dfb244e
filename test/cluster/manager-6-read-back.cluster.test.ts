/**
 * Manifests read back from a cluster synthesize. Every object this tier
 * creates through the released kruise-manager's webhooks (the fixture of
 * every kind and served version, and every case of the admission corpus the
 * webhook admits) is created for real, read back with `kubectl get -o yaml`
 * (status, uid, resourceVersion, generation, creationTimestamp,
 * managedFields and the webhook defaults in it), included with
 * `KruiseInclude` and with cdk8s `Include`, and synthesized: synth accepts it,
 * and the output holds the same spec without what the cluster set.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Include, Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import { Kube, Manifest, describeObject } from './kube';
import { Managers, judgingSynth, runControlPlane, testNamespace } from './manager';
import { fixtures, versionedObject } from './sources';
import { KruiseInclude, KruiseValidation } from '../../src';
import { SERVER_SET_METADATA } from '../../src/admission/engine';
import { admissionCases } from '../fixtures/admission';

/** The namespace the objects are created in. */
const NAMESPACE = 'read-back';

let kube: Kube;
let managers: Managers;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-back-'));

beforeAll(async () => {
  kube = new Kube();
  ({ managers } = await runControlPlane(kube, judgingSynth()));
  await testNamespace(kube, NAMESPACE);
  // the pod the ContainerRecreateRequest fixture restarts a container of
  await kube.request('POST', `/api/v1/namespaces/${NAMESPACE}/pods`, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: NAMESPACE }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
  });
  // the SidecarSet webhook compares a new SidecarSet with every existing one: start from none
  await kube.request('DELETE', '/apis/apps.kruise.io/v1beta1/sidecarsets');
});

afterAll(async () => {
  if (managers) await managers.stopAll();
  kube.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * `m` under `name`; a WorkloadSpread also targets a workload of its own name.
 * The WorkloadSpread webhook refuses a second one for the same workload, and
 * it reads the others from the manager's cache, which may not yet have seen
 * the delete of the one judged before it.
 */
function renamed(m: Manifest, name: string): Manifest {
  const out = JSON.parse(JSON.stringify(m));
  out.metadata = { ...out.metadata, name };
  if (out.kind === 'WorkloadSpread' && out.spec?.targetRef?.name) out.spec.targetRef.name = `${out.spec.targetRef.name}-${name}`;
  return out;
}

/** Every object the tier creates through the webhooks, each under a name of its own. */
function objectsToCreate(): Array<{ id: string; manifest: Manifest; clusterSkip?: string }> {
  const out: Array<{ id: string; manifest: Manifest; clusterSkip?: string }> = [];
  // names of their own: earlier files of the shared cluster may leave a cluster-scoped fixture of the same name
  for (const f of fixtures()) {
    const manifest = versionedObject(f);
    out.push({ id: `fixture ${f.apiVersion} ${f.kind}`, manifest: renamed(manifest, `${manifest.metadata.name}-read-back`), clusterSkip: f.clusterSkip });
  }
  admissionCases().filter(c => c.allowed && c.clusterSkip === undefined).forEach((c, i) => {
    out.push({ id: c.id, manifest: renamed(c.manifest, `case-${i}`) });
  });
  return out;
}

/** `kubectl get -o yaml` of the object at its own apiVersion. */
async function readBack(m: Manifest): Promise<string> {
  const { plural, namespaced } = await kube.resource(m.apiVersion, m.kind);
  const [group, version] = m.apiVersion.split('/');
  const args = ['get', `${plural}.${version}.${group}`, m.metadata.name, '-o', 'yaml', ...(namespaced ? ['-n', m.metadata.namespace] : [])];
  return execFileSync(kube.env.kubectl, args, { env: { ...process.env, KUBECONFIG: kube.env.kubeconfig }, encoding: 'utf-8' });
}

/** JSON with sorted keys and without nulls (cdk8s drops the nulls of a raw object, e.g. a pod template's creationTimestamp). */
function canonical(v: unknown): string {
  const norm = (x: any): any => {
    if (Array.isArray(x)) return x.map(norm);
    if (x === null || typeof x !== 'object') return x;
    return Object.fromEntries(Object.keys(x).sort().filter(k => x[k] !== null).map(k => [k, norm(x[k])]));
  };
  return JSON.stringify(norm(v));
}

/** Synthesize `file` with KruiseInclude (and its options) or cdk8s Include: the error, the output and the warnings. */
function synthInclude(file: string, how: 'KruiseInclude' | 'KruiseInclude keepServerFields' | 'Include') {
  const chart = Testing.chart();
  if (how === 'Include') {
    new Include(chart, 'read-back', { url: file });
    KruiseValidation.enable(chart);
  } else {
    new KruiseInclude(chart, 'read-back', { url: file, keepServerFields: how !== 'KruiseInclude' });
  }
  try {
    return { error: '', output: Testing.synth(chart) as Manifest[] };
  } catch (e: any) {
    return { error: String(e.message), output: [] };
  }
}

test('every object created through the webhooks, read back with kubectl get -o yaml, synthesizes with the same spec', async () => {
  const problems: string[] = [];
  let judged = 0;
  const fromCreate: string[] = [];
  const kinds = new Set<string>();
  const skipped: string[] = [];
  for (const { id, manifest, clusterSkip } of objectsToCreate()) {
    const m = JSON.parse(JSON.stringify(manifest));
    const { namespaced } = await kube.resource(m.apiVersion, m.kind);
    if (namespaced) m.metadata.namespace = NAMESPACE;
    else delete m.metadata.namespace;
    const created = await kube.request('POST', await kube.pathOf(m, ''), m);
    if (created.status >= 300 && clusterSkip) {
      skipped.push(`${id} (${clusterSkip})`);
      continue;
    }
    if (created.status >= 300) {
      problems.push(`${id} ${describeObject(m)}: not created (HTTP ${created.status}): ${created.body?.message ?? created.body}`);
      continue;
    }
    try {
      // a controller may remove the object at once (a NodeImage without its Node): then the create's answer is what was read back
      let yaml: string;
      try {
        yaml = await readBack(m);
      } catch (e: any) {
        if (!/NotFound/.test(String(e?.message))) throw e;
        yaml = stringify(created.body, { version: '1.1' }); // quoted as kubectl quotes them: timestamps stay strings
        fromCreate.push(id);
      }
      const live = parse(yaml);
      const file = path.join(dir, `${judged}.yaml`);
      fs.writeFileSync(file, yaml);
      for (const how of ['KruiseInclude', 'KruiseInclude keepServerFields', 'Include'] as const) {
        const { error, output } = synthInclude(file, how);
        if (error) {
          problems.push(`${id} ${describeObject(m)} through ${how}: ${error}`);
          continue;
        }
        const out = output.find(o => o.kind === m.kind && o.metadata?.name === m.metadata.name);
        if (canonical(out?.spec) !== canonical(live.spec)) problems.push(`${id} ${describeObject(m)} through ${how}: the spec differs from the one read back`);
        const server = SERVER_SET_METADATA.filter(f => out?.metadata?.[f] !== undefined);
        const kept = how !== 'KruiseInclude';
        if (kept && live.status !== undefined && out?.status === undefined) problems.push(`${id} through ${how}: status was left out`);
        if (!kept && (server.length > 0 || out?.status !== undefined)) problems.push(`${id} through ${how}: kept ${[...server, ...(out?.status ? ['status'] : [])].join(', ')}`);
      }
      judged++;
      kinds.add(`${m.apiVersion} ${m.kind}`);
    } finally {
      await kube.request('DELETE', await kube.pathOf(m));
    }
  }
  console.log(`read-back: ${judged} objects of ${kinds.size} kinds and versions created, read back and included three ways; ${problems.length} problems`
    + `${skipped.length > 0 ? `; not created, as the judge says: ${skipped.join(', ')}` : ''}`
    + `${fromCreate.length > 0 ? `; removed by a controller before kubectl get, so read from the create's answer: ${fromCreate.join(', ')}` : ''}`);
  expect(problems).toEqual([]);
  expect(kinds.size).toBe(fixtures().length - skipped.filter(s => s.startsWith('fixture ')).length);
});
