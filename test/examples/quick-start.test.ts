import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CloneSet, CloneSetUpdateStrategy, KruiseControlPlane } from '../../src';

// The README's quick start, as written there.
test('the README quick start synthesizes', () => {
  const app: App = Testing.app();
  new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
  const web = new CloneSet(new Chart(app, 'web'), 'web', {
    replicas: 4,
    containers: [{ image: 'nginx:1.27', portNumber: 80 }],
    updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }),
  });
  web.protect({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  const objects = app.charts.flatMap(c => c.toJson());
  const cs = objects.find(o => o.kind === 'CloneSet');
  expect(cs.spec.replicas).toBe(4);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: '50%' });
  const pub = objects.find(o => o.kind === 'PodUnavailableBudget');
  expect(pub.spec.maxUnavailable).toBe(1);
  expect(pub.spec.targetRef.kind).toBe('CloneSet');
  expect(objects.filter(o => o.kind === 'CustomResourceDefinition')).toHaveLength(18);
});
