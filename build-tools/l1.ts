/**
 * Generates the L1 bindings from the API model with json2jsii: one folder per
 * product, imports/kruise/ (every kind of apps.kruise.io and
 * policy.kruise.io) and imports/rollouts/ (rollouts.kruise.io), each with one
 * module per kind and version (an app loads the classes it uses) and an
 * index.ts that re-exports them all: the namespaces `kruise` and `rollouts`.
 * Every type name starts with its kind (and version, but for the storage
 * version), so no kind can overwrite another. Differences from a plain
 * `cdk8s import`:
 *
 * - fields upstream leaves untyped (pod templates, PVC templates) are typed as
 *   the cdk8s-plus-28 `k8s` types and rendered with their `toJson_*` helpers;
 * - escape-hatch JSON patches are applied after the conversion to wire
 *   format, so a patch that adds a field the schema does not know survives;
 * - every object registers the app-wide Kruise schema validation.
 */
import { Code, TypeGenerator } from 'json2jsii';
import { K8sTypeRef, KindModel, Schema, VersionModel } from '../src/api';

type JSONSchema4 = Parameters<TypeGenerator['addDefinition']>[1];

/** The class name of one version of a kind: the storage version is unsuffixed. */
export function l1ClassName(k: KindModel, v: VersionModel): string {
  return `Kube${l1TypePrefix(k, v)}`;
}

/** Prefix of the struct names of one version of a kind. */
export function l1TypePrefix(k: KindModel, v: VersionModel): string {
  return v.storage ? k.kind : `${k.kind}${versionSuffix(v.name)}`;
}

function versionSuffix(version: string): string {
  // v1alpha1 -> V1Alpha1, v1beta1 -> V1Beta1
  return version.replace(/^v(\d+)([a-z]+)?(\d+)?$/, (_m, major, stage, n) =>
    `V${major}${stage ? stage[0].toUpperCase() + stage.slice(1) : ''}${n ?? ''}`);
}

const list = (t: string) => ({
  type: `k8s.${t}[]`,
  toJson: (x: string) => `${x}?.map(y => k8s.toJson_${t}(y))`,
});
const one = (t: string) => ({ type: `k8s.${t}`, toJson: (x: string) => `k8s.toJson_${t}(${x})` });

/** How an untyped field of the model is typed in the L1 (leaf references). */
const K8S_TYPES: Record<Exclude<K8sTypeRef, 'Container'>, { type: string; toJson: (x: string) => string }> = {
  'PodTemplateSpec': one('PodTemplateSpec'),
  'JobTemplateSpec': one('JobTemplateSpec'),
  'ObjectMeta': one('ObjectMeta'),
  'DeploymentSpec': one('DeploymentSpec'),
  'StatefulSetSpec': one('StatefulSetSpec'),
  'PersistentVolumeClaim[]': list('KubePersistentVolumeClaimProps'),
  'Volume[]': list('Volume'),
  'EphemeralContainer[]': list('EphemeralContainer'),
};

const refName = (t: K8sTypeRef) => `Kplus${t.replace('[]', 'List')}`;

const pascal = (x: string) => x.charAt(0).toUpperCase() + x.slice(1);

/**
 * Turn a model schema into what json2jsii should see: k8s-typed fields become
 * references to custom types; date-times stay strings (they only occur in
 * fields the user does not write). `name` is the type name json2jsii gives
 * this node; objects that extend k8s.Container are recorded in `extendsContainer`.
 */
function forL1(s: Schema, name: string, extendsContainer: Set<string>): JSONSchema4 {
  const k8sType = s['x-cdk8s-kruise-k8s-type'];
  if (k8sType && k8sType !== 'Container') {
    const out: JSONSchema4 = { $ref: `#/definitions/${refName(k8sType)}` };
    if (s.description) out.description = s.description;
    return out;
  }
  if (k8sType === 'Container') extendsContainer.add(name);
  const out: JSONSchema4 = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>)
        .map(([p, ps]) => [p, forL1(ps, `${name}${pascal(p)}`, extendsContainer)]));
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = forL1(value as Schema, name, extendsContainer);
    } else if (key === 'anyOf') {
      out.anyOf = (value as Schema[]).map(x => forL1(x, name, extendsContainer));
    } else if (key === 'format' && value === 'date-time') {
      continue;
    } else if (key.startsWith('x-') || key === 'default') {
      continue;
    } else {
      out[key] = value;
    }
  }
  // A field that is only "preserve unknown fields" is free-form JSON.
  if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties && !s.type) {
    return { description: s.description, type: 'object', additionalProperties: { type: 'object' } };
  }
  return out;
}

/**
 * Structs whose model says "a container plus these fields" extend k8s.Container,
 * and their toJson starts from k8s.toJson_Container.
 */
function extendContainers(source: string, names: Set<string>): string {
  let out = source;
  for (const n of names) {
    const decl = `export interface ${n} {`;
    const fn = `export function toJson_${n}(obj: ${n} | undefined): Record<string, any> | undefined {\n  if (obj === undefined) { return undefined; }\n  const result = {\n`;
    if (!out.includes(decl) || !out.includes(fn)) throw new Error(`L1 generator: struct ${n} not found to extend k8s.Container`);
    out = out.replace(decl, `export interface ${n} extends k8s.Container {`);
    out = out.replace(fn, `${fn}    ...k8s.toJson_Container(obj),\n`);
  }
  return out;
}

/** The module of one version of a kind in its product's folder, e.g. `clone-set-v1alpha1` (imports/kruise/clone-set-v1alpha1.ts). */
export function l1ModuleName(k: KindModel, v: VersionModel): string {
  return `${k.kind.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-').toLowerCase()}-${v.name}`;
}

/**
 * Render the L1 of one product (imports/kruise/, imports/rollouts/) holding
 * `kinds`: one module per kind and version, so an app loads the classes it
 * uses, and an index that re-exports them all (the product's namespace), as
 * file name -> content.
 */
export function renderL1(kinds: KindModel[]): Map<string, string> {
  const files = new Map<string, string>();
  const index = new Code();
  index.line(HEADER);
  index.line('// the namespace of the product: every kind and version, each in its own module');
  for (const k of kinds) {
    for (const v of k.versions) {
      files.set(`${l1ModuleName(k, v)}.ts`, renderVersion(k, v));
      index.line(`export * from './${l1ModuleName(k, v)}';`);
    }
  }
  files.set('index.ts', index.render());
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

const HEADER = '// generated by build-tools/generate.ts from the API model in src/api; do not edit';

/** The module of one version of a kind: its class, props and structs. */
function renderVersion(k: KindModel, v: VersionModel): string {
  const code = new Code();
  code.line(HEADER);
  code.line('/* eslint-disable max-len, quote-props */');
  code.line("import { ApiObject, ApiObjectMetadata, GroupVersionKind, JsonPatch } from 'cdk8s';");
  code.line("import { k8s } from 'cdk8s-plus-28';");
  code.line("import { Construct } from 'constructs';");
  code.line("import { _renderOnce } from '../../src/validation/render';");
  code.line("import { KruiseValidation } from '../../src/validation/register';");
  code.line();

  const types = new TypeGenerator({ toJson: true });
  types.emitCustomType('ApiObjectMetadata', () => ({ type: 'ApiObjectMetadata', toJson: x => x }));
  for (const t of Object.keys(K8S_TYPES) as Array<keyof typeof K8S_TYPES>) {
    types.emitCustomType(refName(t), () => K8S_TYPES[t]);
  }
  const extendsContainer = new Set<string>();

  const cls = l1ClassName(k, v);
  const prefix = l1TypePrefix(k, v);
  const apiVersion = `${k.group}/${v.name}`;
  const props: JSONSchema4 = {
    type: 'object',
    description: `${k.kind} (${apiVersion})`,
    properties: {
      metadata: { $ref: '#/definitions/ApiObjectMetadata' },
    },
  };
  if (v.spec) {
    types.addDefinition(`${prefix}Spec`, forL1(v.spec, `${prefix}Spec`, extendsContainer));
    props.properties!.spec = { $ref: `#/definitions/${prefix}Spec` };
    if ((v.spec.required ?? []).length > 0) props.required = ['spec'];
  }
  types.emitType(`${cls}Props`, props);
  emitClass(code, k, v, cls, apiVersion);
  types.renderToCode(code);
  const rendered = extendContainers(code.render(), extendsContainer);
  // a module whose kind uses no Kubernetes type does not import them
  const k8sImport = "import { k8s } from 'cdk8s-plus-28';\n";
  return rendered.replace(k8sImport, '').includes('k8s.') ? rendered : rendered.replace(k8sImport, '');
}

function emitClass(code: Code, k: KindModel, v: VersionModel, cls: string, apiVersion: string) {
  const propsType = `${cls}Props`;
  const optional = (v.spec?.required ?? []).length > 0 ? '' : ' = {}';
  code.line('/**');
  code.line(` * ${k.kind} (${apiVersion})${v.storage ? '' : `: an older served version; prefer ${k.kind} at the storage version`}.`);
  code.line(' *');
  code.line(` * @schema ${cls}`);
  code.line(' */');
  code.openBlock(`export class ${cls} extends ApiObject`);
  code.line('/**');
  code.line(` * Returns the apiVersion and kind for "${apiVersion}/${k.kind}"`);
  code.line(' */');
  code.line(`public static readonly GVK: GroupVersionKind = { apiVersion: '${apiVersion}', kind: '${k.kind}' };`);
  code.line();
  code.line('/**');
  code.line(` * Renders a Kubernetes manifest for "${k.kind}" (for use inside other objects).`);
  code.line(' *');
  code.line(' * @param props initialization props');
  code.line(' */');
  code.openBlock(`public static manifest(props: ${propsType}${optional}): any`);
  code.line(`return { ...${cls}.GVK, ...toJson_${propsType}(props) };`);
  code.closeBlock();
  code.line();
  code.line('private readonly _patches: JsonPatch[] = [];');
  code.line();
  code.line('/**');
  code.line(` * Defines a "${k.kind}" API object.`);
  code.line(' * @param scope the scope in which to define this object');
  code.line(' * @param id a scope-local name for the object');
  code.line(' * @param props initialization props');
  code.line(' */');
  code.openBlock(`public constructor(scope: Construct, id: string, props: ${propsType}${optional})`);
  code.line(`super(scope, id, { ...${cls}.GVK, ...props });`);
  code.line('KruiseValidation.enable(this);');
  code.closeBlock();
  code.line();
  code.line('/**');
  code.line(' * Adds JSON patches, applied after the object is rendered in wire format,');
  code.line(' * so patched fields the schema does not declare are kept.');
  code.line(' */');
  code.openBlock('public addJsonPatch(...ops: JsonPatch[]): void');
  code.line('this._patches.push(...ops);');
  code.closeBlock();
  code.line();
  code.line('/**');
  code.line(' * Renders the object to Kubernetes JSON (once per synth: the checks and the output share it).');
  code.line(' */');
  code.openBlock('public toJson(): any');
  code.open('return _renderOnce(this, () => {');
  code.line('const resolved = super.toJson();');
  code.line(`const wire = { ...${cls}.GVK, ...toJson_${propsType}(resolved) };`);
  code.line('return this._patches.length > 0 ? JsonPatch.apply(wire, ...this._patches) : wire;');
  code.close('});');
  code.closeBlock();
  code.closeBlock();
  code.line();
}
