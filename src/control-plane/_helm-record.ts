/**
 * Helm's release record, read: the Secret `sh.helm.release.v1.<name>.v<N>`
 * (or the ConfigMap of `HELM_DRIVER=configmap`) decoded with Node's zlib.
 */
import type * as Zlib from 'zlib';

type Json = any;

// zlib loads with the first record read, not with the library
const zlib = (): typeof Zlib => require('zlib') as typeof Zlib; // eslint-disable-line @typescript-eslint/no-require-imports

/** What Helm keeps of a release in its record (`sh.helm.release.v1.<name>.v<N>`). */
export interface _HelmRecord {
  readonly name?: string;
  readonly namespace?: string;
  readonly version?: number;
  readonly status?: string;
  readonly chartName?: string;
  readonly chartVersion?: string;
  readonly appVersion?: string;
  /** The values that were set (`helm get values`). */
  readonly config: Json;
  /** The chart's own values (values.yaml). */
  readonly chartValues: Json;
  /** The rendered manifest Helm applied. */
  readonly manifest: string;
}

const isMap = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an object is a Helm release record (the Secret or, with HELM_DRIVER=configmap, the ConfigMap). */
export function _isHelmRecord(obj: Json): boolean {
  if (!isMap(obj) || !isMap(obj.metadata)) return false;
  if (obj.kind === 'Secret') return obj.type === 'helm.sh/release.v1';
  return obj.kind === 'ConfigMap' && obj.metadata.labels?.owner === 'helm' && typeof obj.data?.release === 'string';
}

/**
 * Decode a release record: a Secret keeps the release as base64 (the
 * Secret's encoding) of base64 of gzip of JSON, a ConfigMap as base64 of gzip
 * of JSON (Helm's storage drivers). Throws with what it met.
 */
export function _decodeHelmRecord(obj: Json, what: string): _HelmRecord {
  const name = `${obj?.kind} ${obj?.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj?.metadata?.name}`;
  const raw = obj?.data?.release;
  if (typeof raw !== 'string' || raw === '') throw new Error(`${what}: ${name} has no data.release; pass the record as kubectl get secret -o json prints it`);
  const helmText = obj.kind === 'Secret' ? Buffer.from(raw, 'base64').toString('utf-8') : raw;
  let bytes = Buffer.from(helmText, 'base64');
  // Helm gzips the JSON (magic 1f 8b); older records may be plain
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = zlib().gunzipSync(bytes);
    } catch (e) {
      throw new Error(`${what}: ${name}: data.release is not a readable gzip stream (${(e as Error).message})`);
    }
  }
  let rel: Json;
  try {
    rel = JSON.parse(bytes.toString('utf-8'));
  } catch {
    throw new Error(`${what}: ${name}: data.release is not a Helm release (base64 of gzip of JSON)`);
  }
  const meta = rel?.chart?.metadata ?? {};
  return {
    name: rel?.name,
    namespace: rel?.namespace,
    version: rel?.version,
    status: rel?.info?.status,
    chartName: meta.name,
    chartVersion: meta.version,
    appVersion: meta.appVersion,
    config: isMap(rel?.config) ? rel.config : {},
    chartValues: isMap(rel?.chart?.values) ? rel.chart.values : {},
    manifest: typeof rel?.manifest === 'string' ? rel.manifest : '',
  };
}

/** The record a List (or one object) holds: the deployed one, else the newest revision. */
export function _pickHelmRecord(input: Json, what: string): Json {
  const items: Json[] = isMap(input) && Array.isArray(input.items) ? input.items.map((i: Json) => ({ kind: input.kind === 'SecretList' ? 'Secret' : i?.kind, ...i })) : [input];
  const records = items.filter(i => _isHelmRecord({ ...i, kind: i?.kind ?? 'Secret' }));
  if (records.length === 0) {
    throw new Error(`${what}: no Helm release record (a Secret of type helm.sh/release.v1) in what was passed; `
      + 'pass kubectl get secret -n NAMESPACE -l owner=helm,name=RELEASE,status=deployed -o json (parsed)');
  }
  const deployed = records.filter(r => r.metadata?.labels?.status === 'deployed');
  const pool = deployed.length > 0 ? deployed : records;
  return pool.reduce((a, b) => (Number(b.metadata?.labels?.version ?? 0) > Number(a.metadata?.labels?.version ?? 0) ? b : a));
}

/** The image of the chart's kruise-manager in a rendered manifest (its Deployment's `manager` container). */
export function _managerImageOf(manifest: string): string | undefined {
  // yaml loads with the first record read, not with the library
  const { parseAllDocuments } = require('yaml') as typeof import('yaml'); // eslint-disable-line @typescript-eslint/no-require-imports
  for (const doc of parseAllDocuments(manifest)) {
    const obj = doc.toJS();
    if (!isMap(obj) || obj.kind !== 'Deployment') continue;
    const containers: Json[] = obj.spec?.template?.spec?.containers ?? [];
    const c = containers.find(x => x?.name === 'manager');
    if (c && typeof c.image === 'string') return c.image;
  }
  return undefined;
}

