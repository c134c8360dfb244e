import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Yaml } from 'cdk8s';
import { IConstruct } from 'constructs';
import { SidecarSetIndex, injectInto, sidecarSetLabel } from './injection';
import { namespaceOf, podTemplateOf } from './objects';
import { appNamespaceLabels, appSidecarSets, appWorkloads } from './sidecar-fleet';
import { _currentRound, _markCheckRounds, _newCheckRound } from '../validation/render';

/**
 * Options for writing the injection previews at synth.
 */
export interface InjectionPreviewWriteOptions {
  /**
   * Directory the previews are written to, one YAML file per workload that
   * gets sidecars (`<kind>.<namespace>.<name>.yaml`). The documents are not
   * Kubernetes objects, so applying them by mistake fails instead of creating
   * pods.
   *
   * @default - `injection-preview/` inside the app's output directory
   */
  readonly directory?: string;
}

const writers = new WeakMap<IConstruct, string | undefined>();

/**
 * The pod a workload runs once OpenKruise has injected the app's SidecarSets:
 * sidecars placed by their inject policy, volumes merged, env transferred,
 * pod annotations patched, image pull secrets added. Computed from every
 * SidecarSet in the app (written with this library or as L1 objects).
 */
export class InjectionPreview {
  /**
   * Compute the preview for one workload (any construct whose API object has a
   * pod template: our Kruise workloads, cdk8s-plus Deployment, StatefulSet,
   * DaemonSet, Job, CronJob, or an L1/raw object).
   *
   * @param workload the workload construct or its ApiObject
   */
  public static of(workload: IConstruct): InjectionPreview {
    // may be called at any time, not only at synth: read the app as it is now
    _newCheckRound();
    const obj = workload instanceof ApiObject ? workload : ApiObject.of(workload);
    const json = obj.toJson();
    const result = injectInto(appNamespaceLabels(workload), json, appSidecarSets(workload));
    if (!result) throw new Error(`${json.kind} "${json.metadata?.name}" at '${workload.node.path}' has no pod template, so no sidecar can be injected into it`);
    return new InjectionPreview(workload.node.path, json, result.injectedBy, result.template, result.problems.map(p => `${sidecarSetLabel(p.from)}: ${p.problem}`),
      result.sidecarOrderFixed);
  }

  /**
   * Write the preview of every workload that gets sidecars when the app
   * synthesizes (opt-in).
   *
   * @param scope any construct of the app
   * @param options where to write
   */
  public static writeAtSynth(scope: IConstruct, options: InjectionPreviewWriteOptions = {}): void {
    const root = scope.node.root;
    _markCheckRounds(root);
    const first = !writers.has(root);
    writers.set(root, options.directory);
    if (!first) return;
    let written: number | undefined;
    root.node.addValidation({
      validate: () => {
        // once per round: the validation passes of one synth share a round
        if (written === _currentRound()) return [];
        written = _currentRound();
        const dir = writers.get(root) ?? path.join((root instanceof App ? root.outdir : 'dist'), 'injection-preview');
        const index = new SidecarSetIndex(appSidecarSets(root));
        const nsLabels = appNamespaceLabels(root);
        const files = new Map<string, any>();
        // the app's own workloads (a context's are written by their own repository)
        for (const w of appWorkloads(root).filter(o => o.origin === undefined)) {
          const r = injectInto(nsLabels, w.json, index.candidates(podTemplateOf(w.json)?.metadata.labels));
          if (!r || r.injectedBy.length === 0) continue;
          const name = `${w.json.kind}.${namespaceOf(w.json)}.${w.json.metadata?.name}`.replace(/[^0-9a-zA-Z-_.]/g, '');
          files.set(name, {
            workload: {
              apiVersion: w.json.apiVersion, kind: w.json.kind, namespace: namespaceOf(w.json), name: w.json.metadata?.name, path: w.owner.node.path,
            },
            injectedBy: r.injectedBy,
            template: r.template,
          });
        }
        fs.mkdirSync(dir, { recursive: true });
        for (const [name, doc] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
          fs.writeFileSync(path.join(dir, `${name}.yaml`), Yaml.stringify(doc));
        }
        return [];
      },
    });
  }

  /** Construct path of the workload. */
  public readonly workloadPath: string;
  /** Kind of the workload. */
  public readonly kind: string;
  /** Name of the workload. */
  public readonly name: string;
  /** Namespace of the workload's pods (`default` when it has none). */
  public readonly namespace: string;
  /** Names of the SidecarSets injected, in the order they are applied. */
  public readonly injectedBy: string[];
  /** The pod template after injection (wire form: `{ metadata, spec }`). */
  public readonly podTemplate: any;
  /** Problems found (name and port collisions); the SidecarSet constructs fail synth on them. */
  public readonly problems: string[];
  /**
   * Whether the order of the containers is fixed. It is not when sidecars of
   * two SidecarSets go on the same side of the app containers: OpenKruise
   * v1.9.0 then injects them in the order it lists the SidecarSets from its
   * cache, which varies; `containerNames` lists them by SidecarSet name.
   */
  public readonly containerOrderFixed: boolean;

  private constructor(workloadPath: string, json: any, injectedBy: string[], template: any, problems: string[], containerOrderFixed: boolean) {
    this.workloadPath = workloadPath;
    this.kind = json.kind;
    this.name = json.metadata?.name;
    this.namespace = namespaceOf(json);
    this.injectedBy = injectedBy;
    this.podTemplate = template;
    this.problems = problems;
    this.containerOrderFixed = containerOrderFixed;
  }

  /** Container names of the pod, in order. */
  public get containerNames(): string[] {
    return (this.podTemplate.spec.containers ?? []).map((c: any) => c.name);
  }

  /** Init container names of the pod, in order. */
  public get initContainerNames(): string[] {
    return (this.podTemplate.spec.initContainers ?? []).map((c: any) => c.name);
  }

  /** Volume names of the pod, in order. */
  public get volumeNames(): string[] {
    return (this.podTemplate.spec.volumes ?? []).map((v: any) => v.name);
  }

  /** The preview as YAML. */
  public toYaml(): string {
    const workload = { kind: this.kind, namespace: this.namespace, name: this.name, path: this.workloadPath };
    return Yaml.stringify({ workload, injectedBy: this.injectedBy, template: this.podTemplate });
  }
}
