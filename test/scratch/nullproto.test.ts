import { Testing, ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CloneSet, SidecarSet, ResourceDistribution, DistributedResource, WorkloadSpread, kruise } from '../../src';

const np = (o: Record<string, string>) => Object.assign(Object.create(null), o);
const tryIt = (name: string, f: (c: any) => void) => {
  const chart = Testing.chart();
  try { f(chart); Testing.synth(chart); console.log(name, 'OK'); } catch (e: any) { console.log(name, 'ERR', e.message.slice(0, 300)); }
};
test('x', () => {
  tryIt('cloneset labels', c => new CloneSet(c, 'w', { metadata: { labels: np({ a: 'b' }) }, containers: [{ image: 'nginx' }] }));
  tryIt('cloneset annotations', c => new CloneSet(c, 'w', { metadata: { annotations: np({ a: 'b' }) }, containers: [{ image: 'nginx' }] }));
  tryIt('cloneset podMetadata', c => { const cs = new CloneSet(c, 'w', { podMetadata: { labels: np({ a: 'b' }) } as any, containers: [{ image: 'nginx' }] }); });
  tryIt('l1 labels', c => new kruise.KubeCloneSet(c, 'w', { metadata: { labels: np({ a: 'b' }) }, spec: { selector: { matchLabels: np({ a: 'b' }) }, template: { metadata: { labels: np({ a: 'b' }) }, spec: { containers: [{ name: 'a', image: 'nginx' }] } } } as any }));
  tryIt('raw', c => new ApiObject(c, 'w', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: np({ a: 'b' }) }, data: np({ a: 'b' }) }));
  tryIt('rd secret', c => new ResourceDistribution(c, 'rd', { resource: DistributedResource.secret({ data: np({ a: 'YQ==' }) } as any), targets: undefined as any } as any));
  tryIt('kplus secret', c => new kplus.Secret(c, 's', { stringData: np({ a: 'b' }) }));
});
import { ImagePullJob, PodProbeMarker, UpdatePriority, CloneSetUpdateStrategy, UnitedDeployment, Rollout } from '../../src';
test('y', () => {
  tryIt('ipj labels', c => new ImagePullJob(c, 'j', { image: 'nginx:1', metadata: { namespace: 'x' }, sandboxConfig: { labels: np({ a: 'b' }), annotations: np({ c: 'd' }) } } as any));
  tryIt('rd from secret', c => new ResourceDistribution(c, 'rd', { resource: DistributedResource.fromSecret(new kplus.Secret(c, 's', { stringData: np({ a: 'b' }) })) } as any));
  tryIt('rd from cm', c => new ResourceDistribution(c, 'rd', { resource: DistributedResource.fromConfigMap(new kplus.ConfigMap(c, 's', { data: np({ a: 'b' }) })) } as any));
  tryIt('sidecar patch', c => { const s = new SidecarSet(c, 'ss', { selector: kplus.LabelSelector.of({ labels: np({ a: 'b' }) }), containers: [{ name: 'x', image: 'nginx' }] } as any); s.addPodMetadataPatch({ annotations: np({ 'a.io/x': 'b' }) } as any); });
  tryIt('cloneset selector', c => new CloneSet(c, 'w', { containers: [{ image: 'nginx' }], select: true, podMetadata: undefined, nodeSelector: np({a:'b'}) } as any));
});
