/**
 * The vocabulary of the API model: a compact way to write Kubernetes
 * structural schemas (the `openAPIV3Schema` of a CRD version) in TypeScript.
 *
 * Every builder returns a plain `Schema` value, so shared building blocks are
 * ordinary constants and functions (see ./blocks.ts). Property names ending in
 * `!` are required: `obj({ 'selector!': labelSelector(), replicas: int32() })`.
 *
 * This module is internal to the library (not exported from the package root).
 */

/** A structural schema node, as the CRD `openAPIV3Schema` spells it. */
export interface Schema {
  'description'?: string;
  'type'?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  'format'?: string;
  'enum'?: Array<string | number | boolean>;
  'default'?: unknown;
  'minimum'?: number;
  'maximum'?: number;
  'exclusiveMinimum'?: boolean;
  'exclusiveMaximum'?: boolean;
  'minLength'?: number;
  'maxLength'?: number;
  'pattern'?: string;
  'minItems'?: number;
  'maxItems'?: number;
  'minProperties'?: number;
  'maxProperties'?: number;
  'items'?: Schema;
  'properties'?: Record<string, Schema>;
  'required'?: string[];
  'additionalProperties'?: Schema | boolean;
  'anyOf'?: Schema[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /**
   * Model-only annotation (never rendered into a CRD): the Kubernetes type
   * that the L1 bindings use for a field upstream leaves untyped.
   */
  'x-cdk8s-kruise-k8s-type'?: K8sTypeRef;
}

/** Kubernetes types from cdk8s-plus-28's `k8s` module that untyped fields map to. */
export type K8sTypeRef =
  | 'PodTemplateSpec' | 'JobTemplateSpec' | 'ObjectMeta' | 'DeploymentSpec' | 'StatefulSetSpec'
  | 'PersistentVolumeClaim[]' | 'Volume[]' | 'EphemeralContainer[]'
  /** On an object with properties: the L1 struct extends k8s.Container with those properties. */
  | 'Container';

/** Extra constraints any scalar builder accepts. */
export interface ScalarOptions {
  readonly description?: string;
  readonly enum?: Array<string | number>;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
}

function scalar(base: Schema, o: ScalarOptions = {}): Schema {
  const s: Schema = { ...base };
  if (o.description !== undefined) s.description = o.description;
  if (o.format !== undefined) s.format = o.format;
  if (o.enum !== undefined) s.enum = [...o.enum];
  if (o.default !== undefined) s.default = o.default;
  if (o.minimum !== undefined) s.minimum = o.minimum;
  if (o.maximum !== undefined) s.maximum = o.maximum;
  if (o.minLength !== undefined) s.minLength = o.minLength;
  if (o.maxLength !== undefined) s.maxLength = o.maxLength;
  if (o.pattern !== undefined) s.pattern = o.pattern;
  return s;
}

/** A string. */
export const str = (o?: ScalarOptions): Schema => scalar({ type: 'string' }, o);
/** A closed set of strings. */
export const oneOf = (values: string[], o?: ScalarOptions): Schema => scalar({ type: 'string', enum: [...values] }, o);
/** A 32-bit integer. */
export const int32 = (o?: ScalarOptions): Schema => scalar({ type: 'integer', format: 'int32' }, o);
/** A 64-bit integer. */
export const int64 = (o?: ScalarOptions): Schema => scalar({ type: 'integer', format: 'int64' }, o);
/** An integer with no declared width. */
export const int = (o?: ScalarOptions): Schema => scalar({ type: 'integer' }, o);
/** A floating point number. */
export const num = (o?: ScalarOptions): Schema => scalar({ type: 'number' }, o);
/** A boolean. */
export const bool = (o?: ScalarOptions): Schema => scalar({ type: 'boolean' }, o);
/** An RFC 3339 timestamp (metav1.Time). */
export const time = (o?: ScalarOptions): Schema => scalar({ type: 'string', format: 'date-time' }, o);
/** base64 bytes. */
export const bytes = (o?: ScalarOptions): Schema => scalar({ type: 'string', format: 'byte' }, o);

/** A number or a string such as "25%" (intstr.IntOrString). */
export const intOrString = (o?: ScalarOptions): Schema =>
  scalar({ 'anyOf': [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true }, o);

/** A field whose content the API server keeps as written (no schema). */
export const untyped = (k8sType?: K8sTypeRef): Schema => {
  const s: Schema = { 'x-kubernetes-preserve-unknown-fields': true };
  if (k8sType) s['x-cdk8s-kruise-k8s-type'] = k8sType;
  return s;
};

/** Options for {@link obj}. */
export interface ObjectOptions {
  readonly description?: string;
  /** x-kubernetes-map-type: atomic (the object is replaced as a whole on apply). */
  readonly atomic?: boolean;
  /** x-kubernetes-preserve-unknown-fields alongside the declared properties. */
  readonly preserveUnknown?: boolean;
  /** x-kubernetes-embedded-resource (the object is a whole Kubernetes object). */
  readonly embedded?: boolean;
  /** The L1 type for an object upstream declares loosely. */
  readonly k8sType?: K8sTypeRef;
}

/**
 * An object with declared properties. Keys ending in `!` are required.
 */
export function obj(props: Record<string, Schema>, o: ObjectOptions = {}): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [rawKey, value] of Object.entries(props)) {
    const isRequired = rawKey.endsWith('!');
    const key = isRequired ? rawKey.slice(0, -1) : rawKey;
    properties[key] = value;
    if (isRequired) required.push(key);
  }
  const s: Schema = { type: 'object', properties };
  if (required.length > 0) s.required = required;
  if (o.description !== undefined) s.description = o.description;
  if (o.atomic) s['x-kubernetes-map-type'] = 'atomic';
  if (o.preserveUnknown) s['x-kubernetes-preserve-unknown-fields'] = true;
  if (o.embedded) s['x-kubernetes-embedded-resource'] = true;
  if (o.k8sType) s['x-cdk8s-kruise-k8s-type'] = o.k8sType;
  return s;
}

/** An object with no declared properties (e.g. `metadata`, `status: {}`). */
export const anyObject = (o: ObjectOptions = {}): Schema => {
  const s: Schema = { type: 'object' };
  if (o.description !== undefined) s.description = o.description;
  if (o.atomic) s['x-kubernetes-map-type'] = 'atomic';
  if (o.preserveUnknown) s['x-kubernetes-preserve-unknown-fields'] = true;
  if (o.embedded) s['x-kubernetes-embedded-resource'] = true;
  if (o.k8sType) s['x-cdk8s-kruise-k8s-type'] = o.k8sType;
  return s;
};

/** Options for {@link list}. */
export interface ListOptions {
  readonly description?: string;
  /** x-kubernetes-list-type: atomic. */
  readonly atomic?: boolean;
  /** x-kubernetes-list-type: set. */
  readonly set?: boolean;
  /** x-kubernetes-list-type: map with these keys. */
  readonly mapKeys?: string[];
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** An array. */
export function list(items: Schema, o: ListOptions = {}): Schema {
  const s: Schema = { type: 'array', items };
  if (o.description !== undefined) s.description = o.description;
  if (o.minItems !== undefined) s.minItems = o.minItems;
  if (o.maxItems !== undefined) s.maxItems = o.maxItems;
  if (o.atomic) s['x-kubernetes-list-type'] = 'atomic';
  if (o.set) s['x-kubernetes-list-type'] = 'set';
  if (o.mapKeys) {
    s['x-kubernetes-list-type'] = 'map';
    s['x-kubernetes-list-map-keys'] = [...o.mapKeys];
  }
  return s;
}

/** A list of strings. */
export const strings = (o?: ListOptions): Schema => list(str(), o);

/** A map from string keys to values of one schema. */
export function mapOf(value: Schema, o: { description?: string } = {}): Schema {
  const s: Schema = { type: 'object', additionalProperties: value };
  if (o.description !== undefined) s.description = o.description;
  return s;
}

/** map[string]string, as labels and annotations. */
export const stringMap = (o?: { description?: string }): Schema => mapOf(str(), o);

/** Attach a description to any schema. */
export function doc(text: string, s: Schema): Schema {
  return { ...s, description: text };
}

// ---------------------------------------------------------------------------
// CRD-level model

/** How a column shows in `kubectl get`. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
  readonly format?: string;
}

/** The /scale subresource paths. */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** One served version of a kind. */
export interface VersionModel {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  /** `spec` of the object. */
  readonly spec?: Schema;
  /** `status` of the object. */
  readonly status?: Schema;
  /** Extra top-level properties some kinds have (rare). */
  readonly extra?: Record<string, Schema>;
  /** A description of the whole object. */
  readonly description?: string;
  readonly printerColumns?: PrinterColumn[];
  /** The /status subresource is enabled. */
  readonly statusSubresource?: boolean;
  readonly scale?: ScaleSubresource;
}

/** A CRD conversion webhook: the Service that converts between the served versions. */
export interface ConversionModel {
  /** The Service name. */
  readonly service: string;
  /** The Service namespace of the default install (a control plane renders its own). */
  readonly namespace: string;
  /** The path served. */
  readonly path: string;
  /** ConversionReview versions the webhook accepts. */
  readonly reviewVersions: string[];
}

/** A kind, with every version it is served in. */
export interface KindModel {
  readonly group: 'apps.kruise.io' | 'policy.kruise.io' | 'rollouts.kruise.io';
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly listKind?: string;
  readonly shortNames?: string[];
  readonly categories?: string[];
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: VersionModel[];
  /** Versions are converted by a webhook (upstream's CRD carries the conversion block). */
  readonly conversion?: ConversionModel;
}

/** The root schema of one version of a kind. */
export function rootSchema(v: VersionModel): Schema {
  const properties: Record<string, Schema> = {
    apiVersion: str({ description: 'The versioned schema of this object (group/version).' }),
    kind: str({ description: 'The REST resource this object represents.' }),
    metadata: anyObject(),
  };
  if (v.spec) properties.spec = v.spec;
  if (v.status) properties.status = v.status;
  Object.assign(properties, v.extra ?? {});
  const s: Schema = { type: 'object', properties };
  if (v.description) s.description = v.description;
  return s;
}

/** The version a kind stores (the one our constructs emit unless said otherwise). */
export function storageVersion(k: KindModel): VersionModel {
  const v = k.versions.find(x => x.storage);
  if (!v) throw new Error(`${k.kind} has no storage version`);
  return v;
}
