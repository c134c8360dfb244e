import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as kruise from '../imports/kruise';
import {
  AdvancedDaemonSetUpdateStrategy, AdvancedStatefulSetUpdateStrategy, CloneSetUpdateStrategy, CloneSetUpdateType, PodUpdatePolicy, UpdatePriority,
  _imagePreDownloadAnnotations, _intOrString, _partition, _renderLifecycle, _seconds,
} from '../src/strategies';

test('_intOrString renders numbers and percentages through the L1 classes', () => {
  expect(_intOrString(kplus.PercentOrAbsolute.absolute(3), kruise.CloneSetSpecUpdateStrategyPartition)?.value).toBe(3);
  expect(_intOrString(kplus.PercentOrAbsolute.percent(30), kruise.CloneSetSpecUpdateStrategyPartition)?.value).toBe('30%');
  expect(_intOrString(undefined, kruise.CloneSetSpecUpdateStrategyPartition)).toBeUndefined();
  expect(_seconds(Duration.minutes(2))).toBe(120);
  expect(_seconds(undefined)).toBeUndefined();
});

test('UpdatePriority renders weighted and ordered forms', () => {
  const sel = kplus.LabelSelector.of({ labels: { a: 'b' }, expressions: [kplus.LabelExpression.exists('c')] });
  expect(UpdatePriority.weighted({ weight: 10, selector: sel })._toKube()).toEqual({
    weightPriority: [{ weight: 10, matchSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'Exists', values: undefined }] } }],
  });
  expect(UpdatePriority.ordered('k1', 'k2')._toKube()).toEqual({ orderPriority: [{ orderedKey: 'k1' }, { orderedKey: 'k2' }] });
});

test('_renderLifecycle drops empty handlers and an empty lifecycle', () => {
  expect(_renderLifecycle(undefined)).toBeUndefined();
  expect(_renderLifecycle({})).toBeUndefined();
  expect(_renderLifecycle({ preDelete: { labels: {}, finalizers: [], markPodNotReady: true } })).toEqual({
    preDelete: { labelsHandler: undefined, finalizersHandler: undefined, markPodNotReady: true }, inPlaceUpdate: undefined, preNormal: undefined,
  });
});

test('CloneSetUpdateStrategy factories carry their type and only the grace period of in-place types', () => {
  expect(CloneSetUpdateStrategy.recreate().type).toBe(CloneSetUpdateType.RECREATE);
  const inPlace = CloneSetUpdateStrategy.inPlaceIfPossible({ gracePeriod: Duration.seconds(5) });
  expect(inPlace._toKube().inPlaceUpdateStrategy).toEqual({ gracePeriodSeconds: 5 });
  expect(CloneSetUpdateStrategy.inPlaceOnly()._toKube()).toMatchObject({ type: 'InPlaceOnly', inPlaceUpdateStrategy: undefined, scatterStrategy: undefined });
});

test('AdvancedStatefulSetUpdateStrategy exposes the effective pod update policy', () => {
  expect(AdvancedStatefulSetUpdateStrategy.onDelete().podUpdatePolicy).toBeUndefined();
  expect(AdvancedStatefulSetUpdateStrategy.rollingUpdate().podUpdatePolicy).toBe(PodUpdatePolicy.RECREATE);
  const inPlaceOnly = AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_ONLY });
  expect(inPlaceOnly.podUpdatePolicy).toBe(PodUpdatePolicy.IN_PLACE_ONLY);
  const unordered = AdvancedStatefulSetUpdateStrategy.rollingUpdate({ unordered: true })._toKube();
  expect(unordered.rollingUpdate?.unorderedUpdate).toEqual({ priorityStrategy: undefined });
});

test('AdvancedDaemonSetUpdateStrategy: surging is Standard with maxSurge only', () => {
  const s = AdvancedDaemonSetUpdateStrategy.surging({ maxSurge: kplus.PercentOrAbsolute.percent(10) })._toKube();
  expect(s.type).toBe('RollingUpdate');
  expect(s.rollingUpdate?.rollingUpdateType).toBe('Standard');
  expect(s.rollingUpdate?.maxSurge?.value).toBe('10%');
  expect(s.rollingUpdate?.maxUnavailable).toBeUndefined();
});

test('_imagePreDownloadAnnotations writes only what is set', () => {
  expect(_imagePreDownloadAnnotations(undefined)).toEqual({});
  expect(_imagePreDownloadAnnotations({ timeout: Duration.minutes(1), minUpdatedReadyPods: kplus.PercentOrAbsolute.absolute(2) })).toEqual({
    'apps.kruise.io/image-predownload-timeout-seconds': '60',
    'apps.kruise.io/image-predownload-min-updated-ready-pods': '2',
  });
});

test('_partition writes a zero percentage as 0 and leaves every other value as _intOrString does', () => {
  const P = kruise.CloneSetSpecUpdateStrategyPartition;
  expect(_partition(kplus.PercentOrAbsolute.percent(0), P)?.value).toBe(0);
  expect(_partition(kplus.PercentOrAbsolute.percent(0.0), P)?.value).toBe(0);
  expect(_partition(kplus.PercentOrAbsolute.percent(10), P)?.value).toBe('10%');
  expect(_partition(kplus.PercentOrAbsolute.percent(100), P)?.value).toBe('100%');
  expect(_partition(kplus.PercentOrAbsolute.absolute(0), P)?.value).toBe(0);
  expect(_partition(undefined, P)).toBeUndefined();
});
