import { ApiObject, JsonPatch, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Warnings } from '../../src';
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
