/**
 * An installed release of the openkruise/charts `kruise` chart, read from
 * what the cluster holds: Helm's release record, or the values `helm get
 * values` prints together with the image the live kruise-manager runs.
 */
import { _decodeHelmRecord, _managerImageOf, _pickHelmRecord } from './_helm-record';

/**
 * An installed release of the openkruise/charts `kruise` chart, as the
 * cluster holds it: the values that were set, and the image its
 * kruise-manager runs, which is the release a takeover starts from
 * (`KruiseControlPlane.fromHelmRelease()`). `helm get values` alone does not
 * say it: it prints only the values that were set, and a release installed
 * without `manager.image.tag` runs the default tag of its chart version.
 */
export class KruiseHelmRelease {
  /**
   * Read from Helm's release record, the Secret `sh.helm.release.v1.<name>.v<N>`:
   * the values that were set, the chart version, and the image the manifest
   * Helm applied gives kruise-manager.
   *
   * @param record the record as `kubectl get secret -n NAMESPACE -l owner=helm,name=RELEASE,status=deployed -o json`
   * prints it (parsed JSON: a List, or one Secret; the deployed revision is taken, else the newest);
   * with `HELM_DRIVER=configmap`, the ConfigMap likewise
   */
  public static fromRecord(record: any): KruiseHelmRelease {
    const what = 'KruiseHelmRelease.fromRecord()';
    const obj = _pickHelmRecord(record, what);
    const rel = _decodeHelmRecord(obj, what);
    const id = `${rel.namespace ?? obj.metadata?.namespace}/${rel.name ?? obj.metadata?.labels?.name}`;
    if (rel.chartName !== 'kruise') {
      throw new Error(`${what}: the release ${id} is of the chart ${rel.chartName ?? '(none)'} ${rel.chartVersion ?? ''}, not of the openkruise/charts kruise chart`);
    }
    const fromManifest = _managerImageOf(rel.manifest);
    const image = fromManifest ?? (() => {
      const repo = rel.config?.manager?.image?.repository ?? rel.chartValues?.manager?.image?.repository;
      const tag = rel.config?.manager?.image?.tag ?? rel.chartValues?.manager?.image?.tag;
      return repo === undefined || tag === undefined ? undefined : `${repo}:${tag}`;
    })();
    if (image === undefined) throw new Error(`${what}: the release ${id} has no kruise-manager Deployment in its manifest and no manager.image values`);
    return new KruiseHelmRelease(rel.config, image,
      `the release record of ${id} (revision ${rel.version}, chart kruise ${rel.chartVersion}${rel.status ? `, ${rel.status}` : ''}) runs ${image}`,
      rel.name, rel.namespace, rel.chartVersion);
  }

  /**
   * The values `helm get values RELEASE -o yaml` prints (parsed), and the
   * image the live kruise-manager Deployment runs.
   *
   * @param values the values that were set (parsed YAML)
   * @param runningImage the image of the live Deployment, as
   * `kubectl get deployment kruise-controller-manager -n kruise-system -o jsonpath='{.spec.template.spec.containers[0].image}'` prints it
   */
  public static fromValues(values: any, runningImage: string): KruiseHelmRelease {
    if (typeof runningImage !== 'string' || runningImage.trim() === '') {
      throw new Error(`KruiseHelmRelease.fromValues(): runningImage is ${JSON.stringify(runningImage)}; pass the image the live kruise-manager runs, e.g. openkruise/kruise-manager:v1.9.1`);
    }
    return new KruiseHelmRelease(values ?? {}, runningImage.trim(), `the live kruise-manager runs ${runningImage.trim()}`);
  }

  /** The values that were set at install and upgrade (what `helm get values` prints). */
  public readonly values: any;
  /** The image the release's kruise-manager runs. */
  public readonly runningImage: string;
  /** Where `runningImage` was read, as messages say it. */
  public readonly runningImageSource: string;
  /**
   * The release's name.
   *
   * @default - not known (read from values)
   */
  public readonly name?: string;
  /**
   * The namespace of the release (of its record).
   *
   * @default - not known (read from values)
   */
  public readonly namespace?: string;
  /**
   * The chart version installed.
   *
   * @default - not known (read from values)
   */
  public readonly chartVersion?: string;

  private constructor(values: any, runningImage: string, runningImageSource: string, name?: string, namespace?: string, chartVersion?: string) {
    this.values = values;
    this.runningImage = runningImage;
    this.runningImageSource = runningImageSource;
    this.name = name;
    this.namespace = namespace;
    this.chartVersion = chartVersion;
  }
}
