import { App, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CloneSet, CloneSetUpdateStrategy, KruiseControlPlane } from '../../src';

// The README's quick start, as written there (test/docs.test.ts runs the block itself, with its main.test.ts).
test('the README quick start synthesizes pods a kubelet starts', () => {
  const app: App = Testing.app();
  new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
  const web = new CloneSet(new Chart(app, 'web'), 'web', {
    replicas: 4,
    containers: [{
      image: 'nginxinc/nginx-unprivileged:1.27',
      portNumber: 8080,
      resources: {
        cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
        memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) },
      },
      securityContext: { readOnlyRootFilesystem: false },
    }],
    updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }),
  });
  web.protect({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  const objects = app.charts.flatMap(c => c.toJson());
  const cs = objects.find(o => o.kind === 'CloneSet');
  expect(cs.spec.replicas).toBe(4);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: '50%' });
  const container = cs.spec.template.spec.containers[0];
  // an image whose user is non-root (uid 101) and that listens above 1024, so runAsNonRoot holds
  expect(container.image).toBe('nginxinc/nginx-unprivileged:1.27');
  expect(container.ports).toEqual([{ containerPort: 8080 }]);
  // nginx writes /var/cache/nginx and its pid file
  expect(container.securityContext).toEqual({
    allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: false, runAsNonRoot: true,
  });
  // not cdk8s-plus's 1 CPU / 512 MiB request per container
  expect(container.resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  const pub = objects.find(o => o.kind === 'PodUnavailableBudget');
  expect(pub.spec.maxUnavailable).toBe(1);
  expect(pub.spec.targetRef.kind).toBe('CloneSet');
  expect(objects.filter(o => o.kind === 'CustomResourceDefinition')).toHaveLength(18);
});
