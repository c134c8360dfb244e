/**
 * Upstream CRD schemas as an oracle: a CRD version's openAPIV3Schema turned
 * into JSON Schema the way the API server reads it under strict field
 * validation, compiled with ajv (not with this library's generator).
 */
import Ajv from 'ajv';

/** A CRD openAPIV3Schema as JSON Schema: int-or-string, nullable, unknown fields refused unless preserved. */
export function toJsonSchema(s: any): any {
  if (!s || typeof s !== 'object') return s;
  const out: any = {};
  for (const [k, v] of Object.entries<any>(s)) {
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries<any>(v).map(([p, ps]) => [p, toJsonSchema(ps)]));
    else if (k === 'items' || k === 'additionalProperties') out[k] = typeof v === 'object' ? toJsonSchema(v) : v;
    else if (['type', 'required', 'enum', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern'].includes(k)) out[k] = v;
  }
  if (s['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (s.nullable && out.type) out.type = [out.type, 'null'];
  if (out.type === 'object' && s.properties && !s['x-kubernetes-preserve-unknown-fields'] && s.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  if (s['x-kubernetes-embedded-resource']) {
    // an embedded object needs apiVersion and kind as non-empty strings
    out.required = [...new Set([...(out.required ?? []), 'apiVersion', 'kind'])];
    out.properties = { ...out.properties, apiVersion: { type: 'string', minLength: 1 }, kind: { type: 'string', minLength: 1 } };
  }
  return out;
}

/** An ajv instance for CRD schemas: Kubernetes' integer and date-time formats, unknown keywords ignored. */
export function crdAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, logger: false });
  ajv.addFormat('int32', { type: 'number', validate: (x: number) => Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (x: number) => Number.isSafeInteger(x) });
  ajv.addFormat('date-time', { type: 'string', validate: (x: string) => !Number.isNaN(Date.parse(x)) });
  return ajv;
}
