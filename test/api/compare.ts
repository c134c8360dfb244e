/**
 * Structural comparison of two CRDs: everything the API server acts on,
 * descriptions excepted. Returns one line per difference, named by path.
 */

/** Schema keys compared one by one. */
const SCALAR_KEYS = [
  'type', 'format', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'nullable',
  'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
];

const KNOWN_KEYS = new Set([...SCALAR_KEYS, 'description', 'properties', 'items', 'required', 'additionalProperties', 'anyOf']);

/** JSON with object keys sorted, so key order never counts as a difference. */
const canon = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map(k => [k, x[k]]))
  : x));
const show = (v: unknown) => (v === undefined ? '(absent)' : canon(v));

export function compareSchemas(ours: any, theirs: any, at: string, out: string[]): void {
  if (ours === undefined || theirs === undefined) {
    if (ours !== theirs) out.push(`${at}: ours ${ours === undefined ? 'missing' : 'present'}, upstream ${theirs === undefined ? 'missing' : 'present'}`);
    return;
  }
  for (const k of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    if (!KNOWN_KEYS.has(k)) out.push(`${at}: unexpected schema key '${k}'`);
  }
  for (const k of SCALAR_KEYS) {
    if (canon(ours[k]) !== canon(theirs[k])) {
      out.push(`${at}: ${k} ours=${show(ours[k])} upstream=${show(theirs[k])}`);
    }
  }
  const req = (x: any) => JSON.stringify([...(x.required ?? [])].sort());
  if (req(ours) !== req(theirs)) out.push(`${at}: required ours=${req(ours)} upstream=${req(theirs)}`);

  const op = ours.properties ?? {};
  const tp = theirs.properties ?? {};
  if ((ours.properties === undefined) !== (theirs.properties === undefined)) {
    out.push(`${at}: properties ours ${ours.properties ? 'declared' : 'absent'}, upstream ${theirs.properties ? 'declared' : 'absent'}`);
  }
  for (const name of [...new Set([...Object.keys(op), ...Object.keys(tp)])].sort()) {
    compareSchemas(op[name], tp[name], `${at}.${name}`, out);
  }
  if (ours.items !== undefined || theirs.items !== undefined) compareSchemas(ours.items, theirs.items, `${at}[]`, out);
  const oa = ours.additionalProperties;
  const ta = theirs.additionalProperties;
  if (typeof oa === 'object' || typeof ta === 'object') {
    compareSchemas(typeof oa === 'object' ? oa : undefined, typeof ta === 'object' ? ta : undefined, `${at}{*}`, out);
  } else if (oa !== ta) {
    out.push(`${at}: additionalProperties ours=${show(oa)} upstream=${show(ta)}`);
  }
  const oany = ours.anyOf ?? [];
  const tany = theirs.anyOf ?? [];
  if (oany.length !== tany.length) out.push(`${at}: anyOf length ours=${oany.length} upstream=${tany.length}`);
  for (let i = 0; i < Math.min(oany.length, tany.length); i++) compareSchemas(oany[i], tany[i], `${at}|${i}`, out);
}

const stripDescriptions = (cols: any[] | undefined) => (cols ?? []).map(c => {
  const { description, ...rest } = c;
  void description;
  return rest;
});

/** Compare two CRD manifests; every line names where they differ. */
export function compareCrds(ours: any, theirs: any): string[] {
  const out: string[] = [];
  const name = theirs.metadata?.name;
  const eq = (label: string, a: unknown, b: unknown) => {
    if (canon(a) !== canon(b)) out.push(`${name} ${label}: ours=${show(a)} upstream=${show(b)}`);
  };
  eq('metadata.name', ours.metadata?.name, theirs.metadata?.name);
  eq('spec.group', ours.spec.group, theirs.spec.group);
  eq('spec.scope', ours.spec.scope, theirs.spec.scope);
  for (const k of ['kind', 'listKind', 'plural', 'singular', 'shortNames', 'categories']) {
    eq(`spec.names.${k}`, ours.spec.names[k], theirs.spec.names[k]);
  }
  eq('spec.conversion', ours.spec.conversion, theirs.spec.conversion);
  eq('spec.preserveUnknownFields', ours.spec.preserveUnknownFields, theirs.spec.preserveUnknownFields);
  eq('versions', ours.spec.versions.map((v: any) => v.name), theirs.spec.versions.map((v: any) => v.name));
  for (const tv of theirs.spec.versions) {
    const ov = ours.spec.versions.find((v: any) => v.name === tv.name);
    if (!ov) continue;
    const at = `${name}/${tv.name}`;
    eq(`${tv.name} served`, ov.served, tv.served);
    eq(`${tv.name} storage`, ov.storage, tv.storage);
    eq(`${tv.name} deprecated`, ov.deprecated, tv.deprecated);
    eq(`${tv.name} deprecationWarning`, ov.deprecationWarning, tv.deprecationWarning);
    eq(`${tv.name} subresources`, ov.subresources, tv.subresources);
    eq(`${tv.name} additionalPrinterColumns`, stripDescriptions(ov.additionalPrinterColumns), stripDescriptions(tv.additionalPrinterColumns));
    compareSchemas(ov.schema?.openAPIV3Schema, tv.schema?.openAPIV3Schema, at, out);
  }
  return out;
}
