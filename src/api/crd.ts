/**
 * Renders the API model into CustomResourceDefinition manifests (the objects
 * written to crds/ and installed by the control plane construct), and into
 * the JSON schemas the synth-time validator compiles.
 */
import { ConversionModel, KindModel, Schema, VersionModel, rootSchema } from './schema';

/** The CRD object name: `<plural>.<group>`. */
export function crdName(k: KindModel): string {
  return `${k.plural}.${k.group}`;
}

/** The file a CRD is written to under crds/: `<group>_<plural>.yaml`. */
export function crdFileName(k: KindModel): string {
  return `${k.group}_${k.plural}.yaml`;
}

/** Keys the model carries for the L1 generator and that never reach a cluster. */
const MODEL_ONLY_KEYS = new Set(['x-cdk8s-kruise-k8s-type']);

/** A deep copy of a schema with model-only annotations removed and keys sorted. */
export function crdSchema(s: Schema): Schema {
  return sortKeys(stripModelKeys(s)) as Schema;
}

function stripModelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripModelKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (MODEL_ONLY_KEYS.has(k)) continue;
      // `properties` and `additionalProperties` hold user-chosen keys: copy as-is,
      // recursing into each value.
      out[k] = stripModelKeys(v);
    }
    return out;
  }
  return value;
}

/** Sort object keys alphabetically, recursively (stable, deterministic output). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      out[k] = sortKeys((value as Record<string, unknown>)[k]);
    }
    return out;
  }
  return value;
}

function renderVersion(v: VersionModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.printerColumns && v.printerColumns.length > 0) {
    out.additionalPrinterColumns = v.printerColumns.map(c => {
      const col: Record<string, unknown> = { jsonPath: c.jsonPath, name: c.name, type: c.type };
      if (c.description !== undefined) col.description = c.description;
      if (c.format !== undefined) col.format = c.format;
      if (c.priority !== undefined) col.priority = c.priority;
      return col;
    });
  }
  if (v.deprecated !== undefined) out.deprecated = v.deprecated;
  if (v.deprecationWarning !== undefined) out.deprecationWarning = v.deprecationWarning;
  out.name = v.name;
  out.schema = { openAPIV3Schema: crdSchema(rootSchema(v)) };
  out.served = v.served;
  out.storage = v.storage;
  const sub: Record<string, unknown> = {};
  if (v.scale) {
    const scale: Record<string, unknown> = {};
    if (v.scale.labelSelectorPath !== undefined) scale.labelSelectorPath = v.scale.labelSelectorPath;
    scale.specReplicasPath = v.scale.specReplicasPath;
    scale.statusReplicasPath = v.scale.statusReplicasPath;
    sub.scale = scale;
  }
  if (v.statusSubresource) sub.status = {};
  if (Object.keys(sub).length > 0) out.subresources = sub;
  return out;
}

/** Options for rendering a CRD. */
export interface CrdRenderOptions {
  /** Extra labels on the CRD object. */
  readonly labels?: Record<string, string>;
  /** Extra annotations on the CRD object. */
  readonly annotations?: Record<string, string>;
  /** The namespace of the conversion webhook's Service, for kinds that have one. */
  readonly conversionNamespace?: string;
}

/** The `spec.conversion` block of a kind served through a conversion webhook, as upstream writes it. */
export function renderConversion(c: ConversionModel, namespace: string): Record<string, unknown> {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { service: { name: c.service, namespace, path: c.path } },
      conversionReviewVersions: [...c.reviewVersions],
    },
  };
}

/** The full CustomResourceDefinition manifest of a kind. */
export function renderCrd(k: KindModel, o: CrdRenderOptions = {}): Record<string, any> {
  const metadata: Record<string, unknown> = { name: crdName(k) };
  if (o.annotations && Object.keys(o.annotations).length > 0) metadata.annotations = sortKeys(o.annotations);
  if (o.labels && Object.keys(o.labels).length > 0) metadata.labels = sortKeys(o.labels);
  const names: Record<string, unknown> = {
    kind: k.kind,
    listKind: k.listKind ?? `${k.kind}List`,
    plural: k.plural,
  };
  if (k.categories) names.categories = [...k.categories];
  if (k.shortNames) names.shortNames = [...k.shortNames];
  names.singular = k.singular;
  return sortKeys({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata,
    spec: {
      ...(k.conversion ? { conversion: renderConversion(k.conversion, o.conversionNamespace ?? k.conversion.namespace) } : {}),
      group: k.group,
      names: sortKeys(names),
      scope: k.scope,
      versions: k.versions.map(renderVersion),
    },
  }) as Record<string, any>;
}

/**
 * The JSON schema the synth-time validator uses for one version of a kind:
 * the CRD schema, made strict where the API server is strict (unknown fields
 * of typed objects are refused, as `kubectl apply --validate=strict` does).
 */
export function validationSchema(k: KindModel, v: VersionModel): Record<string, unknown> {
  const root = crdSchema(rootSchema(v)) as Record<string, unknown>;
  return sortKeys({
    $id: `https://cdk8s-kruise.invalid/schemas/${k.group}/${v.name}/${k.kind}.json`,
    ...strictObjects(root, true) as Record<string, unknown>,
  }) as Record<string, unknown>;
}

/**
 * The schema with every object closed where the API server prunes unknown
 * fields: one with properties, and one without any (a job template's
 * `metadata`: the CRD lists no fields there, so every field written in it is
 * unknown), unless it keeps unknown fields or declares additionalProperties.
 * The object's own metadata stays open: the API server checks it as an
 * ObjectMeta, not by the schema.
 */
function strictObjects(s: unknown, root = false): unknown {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return s;
  const node = s as Record<string, any>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties') {
      const props: Record<string, unknown> = {};
      for (const [pk, pv] of Object.entries(v as Record<string, unknown>)) props[pk] = root && pk === 'metadata' ? pv : strictObjects(pv);
      out.properties = props;
    } else if (k === 'items' || k === 'additionalProperties') {
      out[k] = typeof v === 'object' ? strictObjects(v) : v;
    } else if (k === 'anyOf') {
      out.anyOf = (v as unknown[]).map(x => strictObjects(x));
    } else {
      out[k] = v;
    }
  }
  const closed = (node.properties !== undefined || node.type === 'object')
    && node.additionalProperties === undefined
    && node['x-kubernetes-preserve-unknown-fields'] !== true;
  if (closed) out.additionalProperties = false;
  return out;
}
