/**
 * Kubernetes name and label syntax, as the API server and the OpenKruise
 * webhooks check it. Each checker returns the problems as phrases (empty when
 * valid), so callers build messages with the field and the fix.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const C_IDENTIFIER_ENV = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** What a name check says of a value that is not a string (a manifest can hold anything). */
export const NOT_A_STRING = 'is not a string';

/** DNS-1123 label: at most 63 lowercase alphanumerics or '-', starting and ending alphanumeric. */
export function dns1123LabelProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  const out: string[] = [];
  if (value.length > 63) out.push(`is ${value.length} characters long, more than 63`);
  if (!DNS1123_LABEL.test(value)) out.push('must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit');
  return out;
}

/** DNS-1123 subdomain: at most 253 characters of dot-separated DNS-1123 labels. */
export function dns1123SubdomainProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  const out: string[] = [];
  if (value.length > 253) out.push(`is ${value.length} characters long, more than 253`);
  if (!DNS1123_SUBDOMAIN.test(value)) out.push('must consist of lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit');
  return out;
}

/** A qualified name (label, annotation or finalizer key): `[prefix/]name`. */
export function qualifiedNameProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  const parts = value.split('/');
  if (parts.length > 2) return ['must be a name with at most one \'/\' (an optional DNS subdomain prefix and a name)'];
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  const out: string[] = [];
  if (prefix !== undefined) {
    if (prefix.length === 0) out.push('has an empty prefix before \'/\'');
    else out.push(...dns1123SubdomainProblems(prefix).map(p => `prefix ${p}`));
  }
  if (name.length === 0) {out.push('has an empty name');} else {
    if (name.length > 63) out.push(`name part is ${name.length} characters long, more than 63`);
    if (!QUALIFIED_NAME_PART.test(name)) out.push('name part must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit');
  }
  return out;
}

/** A label value: empty, or at most 63 letters/digits/'-'/'_'/'.' starting and ending alphanumeric. */
export function labelValueProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  const out: string[] = [];
  if (value.length > 63) out.push(`is ${value.length} characters long, more than 63`);
  if (!LABEL_VALUE.test(value)) out.push('must be empty or consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit');
  return out;
}

/** An environment variable name under the strict rule Kruise uses. */
export function envVarNameProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  return C_IDENTIFIER_ENV.test(value) ? [] : ['must consist of letters, digits, \'_\', \'-\' or \'.\', and must not start with a digit'];
}

/** A port name: at most 15 characters, lowercase alphanumerics and '-', with a letter, no '--'. */
export function portNameProblems(value: string): string[] {
  if (typeof value !== 'string') return [NOT_A_STRING];
  const out: string[] = [];
  if (value.length > 15) out.push(`is ${value.length} characters long, more than 15`);
  if (!IANA_SVC_NAME.test(value)) out.push('must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit');
  if (value.includes('--')) out.push('must not contain \'--\'');
  if (!/[a-z]/.test(value)) out.push('must contain at least one letter');
  return out;
}

/** Labels map: every key a qualified name, every value a label value. Returns `key: problem` phrases. */
export function labelsProblems(labels: Record<string, string> | undefined): Array<{ key: string; problem: string }> {
  const out: Array<{ key: string; problem: string }> = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const p of qualifiedNameProblems(k)) out.push({ key: k, problem: `key ${p}` });
    if (typeof v !== 'string' && v !== undefined && v !== null) continue; // not a string: the decoding reports it
    for (const p of labelValueProblems(String(v))) out.push({ key: k, problem: `value ${JSON.stringify(v)} ${p}` });
  }
  return out;
}

/** One problem in an object's metadata, with the field it sits in. */
export interface MetadataProblem {
  readonly field: string;
  readonly value: unknown;
  readonly problem: string;
  readonly fix: string;
}

/** How `objectMetaProblems` checks the object's name. */
export type ObjectNameRule = 'label' | 'subdomain';

/**
 * OM(namespaced, NAMEFN): the generic object-metadata checks of a namespaced
 * object (name, generateName, namespace, label and annotation keys and
 * values, the total annotation size, finalizers). `kind` names the object in
 * the fixes. Absent fields are skipped: the API server fills the namespace
 * from the request, and a manifest may use generateName.
 */
export function objectMetaProblems(meta: Record<string, any> | undefined, nameRule: ObjectNameRule, kind: string): MetadataProblem[] {
  const out: MetadataProblem[] = [];
  const m = meta ?? {};
  const check = nameRule === 'label' ? dns1123LabelProblems : dns1123SubdomainProblems;
  const nameFix = nameRule === 'label'
    ? `give the ${kind} a name of at most 63 lowercase letters, digits and '-' (no dots)`
    : `give the ${kind} a DNS subdomain name (lowercase letters, digits, '-' and '.')`;
  if (typeof m.name === 'string') {
    for (const p of check(m.name)) out.push({ field: 'metadata.name', value: m.name, problem: p, fix: nameFix });
  }
  if (typeof m.generateName === 'string' && m.name === undefined) {
    // a prefix may end in '-': the server appends random characters
    const prefix = m.generateName.replace(/-$/, 'a');
    for (const p of check(prefix)) out.push({ field: 'metadata.generateName', value: m.generateName, problem: p, fix: nameFix });
  }
  if (typeof m.namespace === 'string') {
    for (const p of dns1123LabelProblems(m.namespace)) out.push({ field: 'metadata.namespace', value: m.namespace, problem: p, fix: 'use a valid namespace name' });
  }
  for (const p of labelsProblems(m.labels)) {
    out.push({ field: `metadata.labels[${JSON.stringify(p.key)}]`, value: p.key, problem: p.problem, fix: 'use a qualified key and a valid label value' });
  }
  let size = 0;
  for (const [k, v] of Object.entries(m.annotations ?? {})) {
    size += k.length + String(v).length;
    // the API server checks annotation keys in lower case (ValidateAnnotations)
    for (const p of qualifiedNameProblems(k.toLowerCase())) {
      out.push({ field: `metadata.annotations[${JSON.stringify(k)}]`, value: k, problem: `key ${p}`, fix: 'use a qualified annotation key' });
    }
  }
  if (size > 256 * 1024) {
    out.push({ field: 'metadata.annotations', value: `${size} bytes`, problem: 'are larger than 262144 bytes in total', fix: 'move large data into a ConfigMap' });
  }
  (Array.isArray(m.finalizers) ? m.finalizers : []).forEach((f: unknown, i: number) => {
    for (const p of qualifiedNameProblems(String(f))) {
      out.push({ field: `metadata.finalizers[${i}]`, value: f, problem: p, fix: 'use a qualified finalizer name such as example.com/cleanup' });
    }
  });
  return out;
}
