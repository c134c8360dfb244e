import { ApiObject, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PruneProtection } from '../src';

describe('PruneProtection', () => {
  test('writes the Argo CD and Flux annotations on a cdk8s-plus resource, keeping the sync options it had', () => {
    const chart = Testing.chart();
    const sts = new kplus.StatefulSet(chart, 'db', { containers: [{ image: 'postgres:17', portNumber: 5432 }] });
    ApiObject.of(sts).metadata.addAnnotation(PruneProtection.ARGO_CD_SYNC_OPTIONS, 'Replace=true, Prune=true');
    PruneProtection.protect(sts);
    const m = Testing.synth(chart).find(x => x.kind === 'StatefulSet');
    expect(m.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-options': 'Replace=true,Prune=false', 'kustomize.toolkit.fluxcd.io/prune': 'disabled' });
    expect(PruneProtection.isProtected(m)).toBe(true);
  });

  test('reads the annotations (and Flux\'s label) of a live object', () => {
    expect(PruneProtection.isProtected({ metadata: {} })).toBe(false);
    expect(PruneProtection.argoCdProtects({ metadata: { annotations: { 'argocd.argoproj.io/sync-options': 'Prune=false' } } })).toBe(true);
    expect(PruneProtection.fluxProtects({ metadata: { labels: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled' } } })).toBe(true);
  });

  test('refuses a construct that is no Kubernetes object', () => {
    const chart = Testing.chart();
    const c = new Construct(chart, 'plain');
    expect(() => PruneProtection.protect(c)).toThrow('PruneProtection.protect(): \'test/plain\' is not a Kubernetes object and has no default child that is one; pass the ApiObject (or the cdk8s-plus resource) to keep');
  });
});
