/**
 * The ConfigMap kruise-system/kruise-configuration with a patchPodMetadata
 * whitelist that allows every annotation key, in a chart of its own beside
 * `scope` (so `Testing.synth` of the test's chart leaves it out): the
 * SidecarSet webhook refuses every pod metadata patch without it.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

export function allowPodMetadataPatches(scope: IConstruct, exprs: string[] = ['.*']): void {
  const chart = new Chart(scope.node.root as App, `kruise-configuration-${scope.node.root.node.children.length}`);
  new ApiObject(chart, 'whitelist', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
    data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: exprs }] }) },
  });
}
