import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { KruiseInclude, kruise } from '../src';
import { unshaped } from './util/message-shape';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-include-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const template = { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'shop', image: 'nginx:1.27' }] } };
const cloneSet = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'shop', namespace: 'legacy' },
  spec: { selector: { matchLabels: { app: 'shop' } }, template, ...spec },
});

test('Kruise objects become their L1 classes, other objects plain ApiObjects, fields kept as written', () => {
  const file = write('ok.yaml', [
    YAML.stringify(cloneSet({ replicas: 2, updateStrategy: { type: 'InPlaceIfPossible', partition: '50%', maxUnavailable: 1 } })),
    YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'legacy' }, data: { a: 'b' } }),
  ].join('---\n'));
  const chart = Testing.chart();
  const inc = new KruiseInclude(chart, 'legacy', { url: file });
  expect(inc.apiObjects.map(o => o.node.id)).toEqual(['shop-cloneset-legacy', 'cfg-configmap-legacy']);
  // (cdk8s makes `instanceof` true for every ApiObject class, so compare constructors)
  expect(inc.apiObjects[0].constructor).toBe(kruise.KubeCloneSet);
  expect(inc.apiObjects[1].constructor).toBe(ApiObject);
  const [cs, cm] = Testing.synth(chart);
  expect(cs).toEqual(cloneSet({ replicas: 2, updateStrategy: { type: 'InPlaceIfPossible', partition: '50%', maxUnavailable: 1 } }));
  expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'legacy' }, data: { a: 'b' } });
});

test('an object the cluster would refuse fails synth with its construct path, file and document', () => {
  const file = write('bad.yaml', [
    YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } }),
    YAML.stringify(cloneSet({ replicas: 2, updateStrategy: { type: 'OnDelete' } })),
  ].join('---\n'));
  const chart = Testing.chart();
  new KruiseInclude(chart, 'legacy', { url: file });
  expect(() => Testing.synth(chart)).toThrow([
    'Validation failed with the following errors:',
    `  [test/legacy/shop-cloneset-legacy] CloneSet "shop" (apps.kruise.io/v1alpha1; ${file}, document 2) spec.updateStrategy.type: "OnDelete" is not supported by the CloneSet webhook; use one of ReCreate, InPlaceIfPossible, InPlaceOnly`,
  ].join('\n'));
});

test('schema errors of included objects name the object, file and document', () => {
  const file = write('schema.json', JSON.stringify(cloneSet({ replicas: 'two' })));
  const chart = Testing.chart();
  new KruiseInclude(chart, 'legacy', { url: file });
  expect(() => Testing.synth(chart)).toThrow(
    `[test/legacy/shop-cloneset-legacy] CloneSet "shop" (apps.kruise.io/v1alpha1; ${file}, document 1) spec.replicas: "two" is not an integer; give an integer`,
  );
});

test('a Kruise kind at a version no L1 class has is still judged (and refused)', () => {
  const file = write('version.yaml', YAML.stringify({ ...cloneSet({}), apiVersion: 'apps.kruise.io/v1beta1' }));
  const chart = Testing.chart();
  const inc = new KruiseInclude(chart, 'legacy', { url: file });
  expect(inc.apiObjects[0].constructor).toBe(ApiObject);
  expect(() => Testing.synth(chart)).toThrow(
    `[test/legacy/shop-cloneset-legacy] CloneSet "shop" (apps.kruise.io/v1beta1; ${file}, document 1) apiVersion: "apps.kruise.io/v1beta1" is not a version CloneSet is served as; use apps.kruise.io/v1alpha1`,
  );
});

test('unreadable files, documents that are not objects and repeated objects fail in the one message shape, naming the file', () => {
  /** The error `include` throws, held to the shape of every message. */
  const refusal = (url: string): string => {
    let error = '';
    try { new KruiseInclude(Testing.chart(), 'x', { url }); } catch (e: any) { error = e.message; }
    expect(unshaped([error])).toEqual([]);
    return error;
  };
  const missing = path.join(dir, 'missing.yaml');
  expect(refusal(missing)).toBe(
    `[test/x] KruiseInclude url: "${missing}" cannot be read: there is no such file; give the path of a YAML or JSON manifest (or an http(s) URL)`,
  );
  const scalar = write('scalar.yaml', 'just text\n');
  expect(refusal(scalar)).toBe(
    `[test/x] KruiseInclude url: "${scalar}" holds document 1, which is not a Kubernetes object but "just text"; make every document a mapping with apiVersion and kind`,
  );
  const nokind = write('nokind.yaml', 'apiVersion: v1\nmetadata: { name: a }\n');
  expect(refusal(nokind)).toBe(
    `[test/x] KruiseInclude url: "${nokind}" holds document 1, whose apiVersion is "v1" and kind (unset); give every object both as strings`,
  );
  const twice = write('twice.yaml', `${YAML.stringify(cloneSet({}))}---\n${YAML.stringify(cloneSet({}))}`);
  expect(refusal(twice)).toBe(
    `[test/x] KruiseInclude url: "${twice}" holds document 2, a second CloneSet "shop" in namespace legacy; include each object once`,
  );
  const broken = write('broken.yaml', 'kind: *undefined-anchor\n');
  expect(refusal(broken)).toBe(`[test/x] KruiseInclude url: "${broken}" cannot be read (Unresolved alias (the anchor must be set before the alias): undefined-anchor); `
    + 'give the path of a YAML or JSON manifest (or an http(s) URL)');
});

test('empty documents are skipped', () => {
  const file = write('empty.yaml', `---\n${YAML.stringify(cloneSet({}))}---\n`);
  const chart = Testing.chart();
  expect(new KruiseInclude(chart, 'legacy', { url: file }).apiObjects).toHaveLength(1);
  expect(Testing.synth(chart)).toHaveLength(1);
});

test('a metadata.name that is not a string: the construct id leaves it out, and the schema names the field', () => {
  const file = write('object-name.yaml', YAML.stringify({ ...cloneSet({}), metadata: { name: { first: 'shop' }, namespace: 'legacy' } }));
  const chart = Testing.chart();
  const inc = new KruiseInclude(chart, 'legacy', { url: file });
  expect(inc.apiObjects.map(o => o.node.id)).toEqual(['object0-cloneset-legacy']);
  expect(() => Testing.synth(chart)).toThrow(`[test/legacy/object0-cloneset-legacy] CloneSet (apps.kruise.io/v1alpha1; ${file}, document 1) metadata.name: {"first":"shop"} is not a string, so the API server cannot decode the object's metadata; give a string`);
});
