import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { KruiseInclude, kruise } from '../src';

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

test('unreadable files, documents that are not objects and repeated objects fail with a sentence', () => {
  const missing = path.join(dir, 'missing.yaml');
  expect(() => new KruiseInclude(Testing.chart(), 'x', { url: missing })).toThrow(
    `KruiseInclude at 'test/x': cannot read '${missing}': no such file; give the path of a YAML or JSON manifest (or an http(s) URL)`,
  );
  const scalar = write('scalar.yaml', 'just text\n');
  expect(() => new KruiseInclude(Testing.chart(), 'x', { url: scalar })).toThrow(
    `KruiseInclude at 'test/x': '${scalar}', document 1 is not a Kubernetes object but "just text"; every document must be a mapping with apiVersion and kind`,
  );
  const nokind = write('nokind.yaml', 'apiVersion: v1\nmetadata: { name: a }\n');
  expect(() => new KruiseInclude(Testing.chart(), 'x', { url: nokind })).toThrow(
    `KruiseInclude at 'test/x': '${nokind}', document 1 has apiVersion "v1" and kind undefined; every object needs both as strings`,
  );
  const twice = write('twice.yaml', `${YAML.stringify(cloneSet({}))}---\n${YAML.stringify(cloneSet({}))}`);
  expect(() => new KruiseInclude(Testing.chart(), 'x', { url: twice })).toThrow(
    `KruiseInclude at 'test/x': '${twice}', document 2 is a second CloneSet "shop" in namespace legacy; each object may appear once`,
  );
});

test('empty documents are skipped', () => {
  const file = write('empty.yaml', `---\n${YAML.stringify(cloneSet({}))}---\n`);
  const chart = Testing.chart();
  expect(new KruiseInclude(chart, 'legacy', { url: file }).apiObjects).toHaveLength(1);
  expect(Testing.synth(chart)).toHaveLength(1);
});
