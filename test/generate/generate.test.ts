/**
 * The case generator (the cluster tier's releases files judge its cases):
 * deterministic per seed and index, starting from a seed of every kind and
 * served version of every modelled release, changing fields all over the
 * schema, and writing every YAML form as text that parses.
 */
import { load, loadAll } from 'js-yaml';
import { caseSeed, generateCase, generateCases, sitesOf } from './cases';
import { seedsOf } from './seeds';
import { kindsOfLine } from '../../src/releases/model';
import { Product } from '../../src/releases/registry';

const LINES: Array<[Product, string]> = [['openkruise', '1.7'], ['openkruise', '1.8'], ['openkruise', '1.9'], ['rollouts', '0.5'], ['rollouts', '0.6']];

test.each(LINES)('%s %s: a seed for every kind and served version of the release', (product, line) => {
  const seeds = seedsOf(product, line);
  const have = new Set(seeds.map(s => `${s.manifest.apiVersion}/${s.manifest.kind}`));
  const served = kindsOfLine(product, line).flatMap(k => k.versions.filter(v => v.served !== false).map(v => `${k.group}/${v.name}/${k.kind}`));
  expect(served.filter(k => !have.has(k))).toEqual([]);
  // every seed is of a kind and version the release serves
  expect(seeds.map(s => `${s.manifest.apiVersion}/${s.manifest.kind}`).filter(k => !served.includes(k))).toEqual([]);
});

test('a case is the same every time it is made from its seed and index, alone or in a run', () => {
  const seeds = seedsOf('openkruise', '1.8');
  const run = generateCases(seeds, 7, 40, 'run');
  expect(generateCase(seeds, 7, 33, 'run')).toEqual(run[33]);
  expect(generateCases(seeds, 7, 40, 'run')).toEqual(run);
  // another base seed gives other cases
  expect(generateCases(seeds, 8, 40, 'run').map(c => c.changes)).not.toEqual(run.map(c => c.changes));
  expect(new Set(run.map(c => c.seed)).size).toBe(40);
  expect(caseSeed(7, 33)).toBe(run[33].seed);
});

test('a run reaches every kind, all three forms, and changes one or two fields of its seed', () => {
  const seeds = seedsOf('openkruise', '1.9');
  const cases = generateCases(seeds, 42, 1500, '1.9');
  const kinds = new Set(cases.map(c => c.manifest.kind));
  expect([...new Set(seeds.map(s => s.manifest.kind))].filter(k => !kinds.has(k))).toEqual([]);
  expect(new Set(cases.map(c => c.form))).toEqual(new Set(['create', 'update', 'yaml']));
  for (const c of cases) {
    const changes = c.changes.filter(x => !x.startsWith('written as '));
    expect(changes.length).toBeGreaterThanOrEqual(1);
    expect(changes.length).toBeLessThanOrEqual(2);
    if (c.form === 'update') expect(c.old).toBeDefined();
  }
  // changes reach the pod template, the schema's enums and int-or-strings, metadata and the YAML forms
  const all = cases.flatMap(c => c.changes).join('\n');
  for (const reached of ['.template.spec.volumes +=', '.containers[0].', 'metadata.', 'updateStrategy', 'written as concatenated', 'written as yaml-1.1-scalars', 'written as anchors']) {
    expect(all).toContain(reached);
  }
});

test('every YAML form is text a YAML reader takes', () => {
  const seeds = seedsOf('rollouts', '0.6');
  const texts = generateCases(seeds, 3, 400, '0.6').filter(c => c.form === 'yaml');
  expect(texts.length).toBeGreaterThan(10);
  for (const c of texts) {
    const docs = loadAll(c.yaml!, null, { json: true }).filter(d => d !== null && d !== undefined);
    expect(docs.length).toBeGreaterThanOrEqual(1);
  }
  // two manifests concatenated without `---` are one document whose keys are each written twice
  const cat = texts.find(c => c.yamlForm === 'concatenated');
  if (cat) expect(() => load(cat.yaml!)).toThrow(/duplicated mapping key/);
});

test('the sites of a seed are every field of its schema, set or not, down to list items and map entries', () => {
  const seed = seedsOf('openkruise', '1.9').find(s => s.manifest.kind === 'CloneSet')!;
  const paths = sitesOf(seed.manifest, seed.schema).map(s => s.path.join('.'));
  expect(paths).toEqual(expect.arrayContaining(['spec.replicas', 'spec.updateStrategy.partition', 'spec.template', 'spec.scaleStrategy.podsToDelete', 'spec.selector.matchLabels']));
});
