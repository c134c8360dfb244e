import * as zlib from 'zlib';
import { Testing } from 'cdk8s';
import { KruiseControlPlane, KruiseHelmRelease } from '../../src';
import { helmRecord } from '../fixtures/helm-release';

const deployment = (tag: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
  spec: { template: { spec: { containers: [{ name: 'manager', image: `openkruise/kruise-manager:${tag}` }] } } },
});
const chartValues = { manager: { image: { repository: 'openkruise/kruise-manager', tag: 'v1.8.3' } } };

describe('KruiseHelmRelease.fromRecord', () => {
  test('the deployed revision of a List of records: the values set, the chart version, the image its manifest gives kruise-manager', () => {
    const v1 = helmRecord({ revision: 1, status: 'superseded', chartVersion: '1.8.0', chartValues, config: {}, manifest: [deployment('v1.8.0')] });
    const v2 = helmRecord({ revision: 2, chartVersion: '1.8.3', chartValues, config: { manager: { replicas: 3 } }, manifest: [deployment('v1.8.3')] });
    const r = KruiseHelmRelease.fromRecord({ apiVersion: 'v1', kind: 'List', items: [v2, v1] });
    expect([r.name, r.namespace, r.chartVersion, r.runningImage, r.values]).toEqual(['kruise', 'default', '1.8.3', 'openkruise/kruise-manager:v1.8.3', { manager: { replicas: 3 } }]);
    expect(r.runningImageSource).toBe('the release record of default/kruise (revision 2, chart kruise 1.8.3, deployed) runs openkruise/kruise-manager:v1.8.3');
    const cp = KruiseControlPlane.fromHelmRelease(Testing.chart(), 'kruise', r);
    expect([cp.release, cp.managerImage]).toEqual(['1.8.3', 'openkruise/kruise-manager:v1.8.3']);
  });

  test('the ConfigMap of HELM_DRIVER=configmap (base64 of gzip of JSON, no Secret encoding)', () => {
    const secret = helmRecord({ chartVersion: '1.8.3', chartValues, config: {}, manifest: [deployment('v1.8.3')] });
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...secret.metadata }, data: { release: Buffer.from(secret.data.release, 'base64').toString() } };
    expect(KruiseHelmRelease.fromRecord(configMap).runningImage).toBe('openkruise/kruise-manager:v1.8.3');
  });

  test('without a kruise-manager in the manifest, the image the values give it: the set tag, else the chart\'s default', () => {
    expect(KruiseHelmRelease.fromRecord(helmRecord({ chartVersion: '1.8.3', chartValues, config: {}, manifest: [] })).runningImage).toBe('openkruise/kruise-manager:v1.8.3');
    expect(KruiseHelmRelease.fromRecord(helmRecord({ chartVersion: '1.8.3', chartValues, config: { manager: { image: { tag: 'v1.8.2' } } }, manifest: [] })).runningImage)
      .toBe('openkruise/kruise-manager:v1.8.2');
  });

  test('what is no record of the kruise chart is refused, saying what it met', () => {
    expect(() => KruiseHelmRelease.fromRecord({ apiVersion: 'v1', kind: 'List', items: [] })).toThrow(
      'KruiseHelmRelease.fromRecord(): no Helm release record (a Secret of type helm.sh/release.v1) in what was passed; pass kubectl get secret -n NAMESPACE -l owner=helm,name=RELEASE,status=deployed -o json (parsed)');
    const other = helmRecord({ chartName: 'kruise-rollout', chartVersion: '0.6.2', chartValues: {}, config: {}, manifest: [] });
    expect(() => KruiseHelmRelease.fromRecord(other)).toThrow('KruiseHelmRelease.fromRecord(): the release default/kruise is of the chart kruise-rollout 0.6.2, not of the openkruise/charts kruise chart');
    const broken = helmRecord({ chartVersion: '1.8.3', chartValues, config: {}, manifest: [] });
    broken.data.release = Buffer.from(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]).toString('base64')).toString('base64');
    expect(() => KruiseHelmRelease.fromRecord(broken)).toThrow(/^KruiseHelmRelease\.fromRecord\(\): Secret default\/sh\.helm\.release\.v1\.kruise\.v1: data\.release is not a readable gzip stream \(/);
    const notJson = helmRecord({ chartVersion: '1.8.3', chartValues, config: {}, manifest: [] });
    notJson.data.release = Buffer.from(zlib.gzipSync(Buffer.from('not json')).toString('base64')).toString('base64');
    expect(() => KruiseHelmRelease.fromRecord(notJson)).toThrow('KruiseHelmRelease.fromRecord(): Secret default/sh.helm.release.v1.kruise.v1: data.release is not a Helm release (base64 of gzip of JSON)');
    const { data: _d, ...empty } = broken;
    void _d;
    expect(() => KruiseHelmRelease.fromRecord(empty)).toThrow('KruiseHelmRelease.fromRecord(): Secret default/sh.helm.release.v1.kruise.v1 has no data.release; pass the record as kubectl get secret -o json prints it');
  });
});
