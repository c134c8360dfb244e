import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, JsonPatch, Lazy, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AdvancedStatefulSet, CloneSet, CloneSetUpdateStrategy, SidecarSet, Warnings, kruise } from '../../src';
import { cloneSetAdmission } from '../../src/admission/clone-set';
import { _markCheckRounds, _newCheckRound, _renderForChecks } from '../../src/validation/render';

function counted(chart: Construct) {
  const obj = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } });
  const spy = jest.spyOn(obj, 'toJson');
  return { obj, spy };
}

test('an object is rendered once per round, and every reader gets its own copy', () => {
  const chart = Testing.chart();
  const { obj, spy } = counted(chart);
  _newCheckRound();
  const a = _renderForChecks(obj);
  a.data.a = 'changed by a rule';
  const b = _renderForChecks(obj);
  expect(b.data).toEqual({ a: '1' });
  expect(spy).toHaveBeenCalledTimes(1);
});

test('a new round renders again, so later changes are seen', () => {
  const chart = Testing.chart();
  const { obj, spy } = counted(chart);
  _newCheckRound();
  _renderForChecks(obj);
  obj.addJsonPatch(JsonPatch.replace('/data/a', '2'));
  _newCheckRound();
  expect(_renderForChecks(obj).data).toEqual({ a: '2' });
  expect(spy).toHaveBeenCalledTimes(2);
});

test('each synth of the app is a new round', () => {
  const chart = Testing.chart();
  _markCheckRounds(chart);
  const { obj } = counted(chart);
  const seen: string[] = [];
  Warnings._addProducer(new Construct(chart, 'reader'), () => { seen.push(_renderForChecks(obj).data.a); return []; });
  Testing.synth(chart);
  obj.addJsonPatch(JsonPatch.replace('/data/a', '3'));
  Testing.synth(chart);
  expect(seen).toEqual(['1', '3']);
});

describe('one synth, one render and one verdict per object', () => {
  const spec = { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } };

  /** An L1 CloneSet whose spec counts how often it is rendered. */
  function countedCloneSet(chart: Construct, id: string, patch?: () => Record<string, unknown>) {
    const renders = { count: 0 };
    new kruise.KubeCloneSet(chart, id, {
      metadata: { name: id },
      spec: Lazy.any({ produce: () => { renders.count++; return { ...spec, ...patch?.() }; } }),
    });
    return renders;
  }

  test('App.synthYaml renders each object once for every check and the output, however many charts it writes', () => {
    const app = Testing.app();
    const a = countedCloneSet(new Chart(app, 'one'), 'a');
    const b = countedCloneSet(new Chart(app, 'two'), 'b');
    const judged = jest.spyOn(cloneSetAdmission, 'validate');
    const yaml = app.synthYaml();
    // cdk8s validates the whole app three times here (once for the app, once per chart)
    expect({ a: a.count, b: b.count, judged: judged.mock.calls.length }).toEqual({ a: 1, b: 1, judged: 2 });
    expect(yaml).toContain('name: a\n');
    judged.mockRestore();
  });

  /** The Service cdk8s-plus-28 writes for an AdvancedStatefulSet of `chart`. */
  const serviceOf = (chart: Construct) => chart.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === 'Service')!;

  test('an object of cdk8s-plus-28 beside a Kruise workload is rendered once, by the output, in an app without policies', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'one');
    new AdvancedStatefulSet(chart, 'db', { containers: [{ image: 'postgres:16' }] });
    const service = serviceOf(chart);
    const renders = jest.spyOn(service, 'toJson');
    expect(app.synthYaml()).toContain('kind: Service\n');
    expect(renders).toHaveBeenCalledTimes(1);
  });

  test('with a SidecarSet in the app, its app-wide checks read every object, the Service too', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'one');
    new SidecarSet(chart, 'logs', { selector: kplus.LabelSelector.of({ labels: { app: 'db' } }), containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.1' }] });
    new AdvancedStatefulSet(chart, 'db', { containers: [{ image: 'postgres:16' }] });
    const service = serviceOf(chart);
    const renders = jest.spyOn(service, 'toJson');
    app.synthYaml();
    // once for the checks, once by cdk8s for the output (cdk8s-plus-28 writes its own objects)
    expect(renders).toHaveBeenCalledTimes(2);
  });

  test('Testing.synth of a chart renders each object once', () => {
    const chart = Testing.chart();
    const a = countedCloneSet(chart, 'a');
    expect(Testing.synth(chart)[0].spec).toEqual(spec);
    expect(a.count).toBe(1);
  });

  test('the next synth renders again, so changes between synths are written', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'one');
    let replicas = 1;
    const a = countedCloneSet(chart, 'a', () => ({ replicas }));
    expect(app.synthYaml()).toContain('replicas: 1\n');
    replicas = 2;
    expect(app.synthYaml()).toContain('replicas: 2\n');
    expect(a.count).toBe(2);
  });

  test('after a synth that fails, a fixed object synthesizes (the failed synth leaves nothing behind)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'one');
    let replicas = -1;
    countedCloneSet(chart, 'a', () => ({ replicas }));
    expect(() => app.synthYaml()).toThrow('spec.replicas: -1');
    replicas = 3;
    expect(app.synthYaml()).toContain('replicas: 3\n');
  });

  test('outside a synth, toJson renders afresh every time', () => {
    const chart = Testing.chart();
    const a = countedCloneSet(chart, 'a');
    Testing.synth(chart);
    const obj = chart.node.findChild('a') as ApiObject;
    obj.toJson();
    obj.toJson();
    expect(a.count).toBe(3);
  });

  test('the checks leave the shared render as it was: the written YAML equals a fresh render of every object', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'fleet');
    const team = kplus.LabelSelector.of({ labels: { team: 'a' } });
    new SidecarSet(chart, 'agent', { selector: team, containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.1', portNumber: 2020 }] });
    const cs = new CloneSet(chart, 'web', {
      replicas: 4,
      containers: [{ image: 'nginx:1.27', portNumber: 80 }],
      updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }),
    });
    cs.podMetadata.addLabel('team', 'a');
    cs.protect({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
    cs.spreadOver({ subsets: [{ name: 'a', requiredNodeLabels: [kplus.NodeLabelQuery.is('zone', 'a')] }] });
    new AdvancedStatefulSet(chart, 'db', { replicas: 3, containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    const byName = (docs: any[]) => Object.fromEntries(docs.map(d => [`${d.kind}/${d.metadata.name}`, d]));
    const written = byName(Yaml.load(writeTemp(app.synthYaml())));
    const fresh = byName(chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map(o => o.toJson()));
    expect(Object.keys(written).map(k => k.split('/')[0]).sort()).toEqual(['CloneSet', 'PodUnavailableBudget', 'Service', 'SidecarSet', 'StatefulSet', 'WorkloadSpread']);
    expect(written).toEqual(JSON.parse(JSON.stringify(fresh)));
  });
});

function writeTemp(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'render-')), 'app.yaml');
  fs.writeFileSync(file, text);
  return file;
}
