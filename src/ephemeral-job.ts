/**
 * EphemeralJob: add debug containers (Kubernetes ephemeral containers) to
 * running pods that a selector matches, a number of pods at a time.
 *
 * The containers are declared with the cdk8s-plus container vocabulary
 * (image, command, args, working dir, env, env from, security context), minus
 * what an ephemeral container may not have (ports, probes, resources,
 * lifecycle): the props offer none of those. Volume mounts name volumes of
 * the target pods. `imagePullPolicy` and `terminationMessagePolicy` are
 * written with the Kubernetes defaults when unset, because the EphemeralJob
 * webhook requires both and nothing defaults them. Everything else is
 * rendered only when set (unlike a cdk8s-plus pod container, no resources and
 * no security context are added). The rules OpenKruise applies to the
 * ephemeral containers are judged at synth by the admission layer.
 */
import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _objectLine } from './admission/engine';
import { fieldError } from './validation/report';

/** A volume of the target pods, mounted into an ephemeral container. */
export interface EphemeralVolumeMount {
  /** The name of the pod volume (a volume of the target pods). */
  readonly volumeName: string;

  /** Where the volume is mounted in the container. */
  readonly path: string;

  /**
   * Mount read-only.
   *
   * @default false
   */
  readonly readOnly?: boolean;
}

/** An ephemeral (debug) container: what Kubernetes allows one to have. */
export interface EphemeralContainerProps {
  /** The container name (a DNS-1123 label, unique in the pod). */
  readonly name: string;

  /** The image, with its tag or digest. */
  readonly image: string;

  /**
   * The container whose namespaces (processes, network) the debug container
   * joins, as `kubectl debug --target` does.
   *
   * @default - none: the container shares only the pod's network
   */
  readonly targetContainerName?: string;

  /**
   * The entrypoint.
   *
   * @default - the image's entrypoint
   */
  readonly command?: string[];

  /**
   * The arguments of the entrypoint.
   *
   * @default - the image's arguments
   */
  readonly args?: string[];

  /**
   * The working directory.
   *
   * @default - the image's
   */
  readonly workingDir?: string;

  /**
   * Environment variables.
   *
   * @default - none
   */
  readonly envVariables?: { [name: string]: kplus.EnvValue };

  /**
   * Sources of environment variables (ConfigMaps, Secrets).
   *
   * @default - none
   */
  readonly envFrom?: kplus.EnvFrom[];

  /**
   * Volumes of the target pods to mount.
   *
   * @default - none
   */
  readonly volumeMounts?: EphemeralVolumeMount[];

  /**
   * When the image is pulled.
   *
   * @default - Always for an image tagged `latest` or untagged, IfNotPresent
   * otherwise (the Kubernetes default, written because the EphemeralJob webhook requires it)
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * The security context, as for a cdk8s-plus container (unset fields take
   * the cdk8s-plus defaults, e.g. `ensureNonRoot: true`).
   *
   * @default - none written
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;

  /**
   * Keep stdin open (and attach a TTY with `tty`), for `kubectl attach`.
   *
   * @default false
   */
  readonly stdin?: boolean;

  /**
   * Allocate a TTY (needs `stdin`).
   *
   * @default false
   */
  readonly tty?: boolean;
}

/** Props of an `EphemeralJob`. */
export interface EphemeralJobProps extends kplus.ResourceProps {
  /** The pods to add the containers to (in the job's namespace). */
  readonly selector: kplus.LabelSelector;

  /**
   * The containers to add to each pod; more with `addContainer()`.
   *
   * @default - none
   */
  readonly containers?: EphemeralContainerProps[];

  /**
   * How many of the matching pods get the containers.
   *
   * @default - every matching pod
   */
  readonly replicas?: number;

  /**
   * How many pods get the containers at the same time.
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly parallelism?: number;

  /**
   * How long the job may stay active.
   *
   * @default - no deadline
   */
  readonly activeDeadline?: Duration;

  /**
   * How long a finished job is kept before OpenKruise deletes it. A GitOps
   * tool that syncs the job then creates it again, which adds the containers
   * to pods that do not have them yet: remove the job from the source once it
   * did its work.
   *
   * @default - 30 minutes (the OpenKruise default; not written)
   */
  readonly ttlAfterFinished?: Duration;

  /**
   * Add the containers to no further pod.
   *
   * @default false
   */
  readonly paused?: boolean;
}

/** The Kubernetes default pull policy of an image: Always when it is tagged latest or untagged (and has no digest). */
function defaultPullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastPart = image.slice(image.lastIndexOf('/') + 1);
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : undefined;
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/**
 * An OpenKruise EphemeralJob (`apps.kruise.io/v1alpha1`): OpenKruise adds
 * ephemeral containers (debug tools, profilers, packet capture) to the
 * running pods a selector matches, without restarting them.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: EphemeralJob
 * spec:
 *   selector: { matchLabels: { app: web } }
 *   replicas: 2
 *   parallelism: 1
 *   template:
 *     ephemeralContainers:
 *     - name: debugger
 *       image: busybox:1.36
 *       targetContainerName: web
 *       imagePullPolicy: IfNotPresent
 *       terminationMessagePolicy: File
 *       command: [sleep, "3600"]
 * ```
 */
export class EphemeralJob extends kplus.Resource {
  /** The pods the containers are added to. */
  public readonly selector: kplus.LabelSelector;

  /** How many matching pods get the containers, when set. */
  public readonly replicas?: number;

  /** Pods handled at the same time, when set. */
  public readonly parallelism?: number;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'ephemeraljobs';

  private readonly props: EphemeralJobProps;
  private readonly _containers: EphemeralContainerProps[] = [];

  public constructor(scope: Construct, id: string, props: EphemeralJobProps) {
    super(scope, id);
    this.props = props;
    this.selector = props.selector;
    this.replicas = props.replicas;
    this.parallelism = props.parallelism;
    if (props.selector.isEmpty()) {
      throw new Error(`EphemeralJob at '${this.node.path}': 'selector' is empty, so every pod of the namespace would get the containers; select the pods by their labels`);
    }
    for (const [prop, v] of [['replicas', props.replicas], ['parallelism', props.parallelism]] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 0)) {
        throw new Error(`EphemeralJob at '${this.node.path}': '${prop}' (${v}) must be a whole number of pods, 0 or more`);
      }
    }
    this.apiObject = new (_l1('EphemeralJob').KubeEphemeralJob)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    for (const c of props.containers ?? []) this.addContainer(c);
    this.node.addValidation({
      validate: () => (this._containers.length === 0
        ? [_objectLine(this.apiObject, fieldError('spec.template.ephemeralContainers', [], 'is empty, so the EphemeralJob adds no container', "pass 'containers' or call addContainer()"))] : []),
    });
  }

  /** The containers (a copy; add with `addContainer()`). */
  public get containers(): EphemeralContainerProps[] {
    return [...this._containers];
  }

  /**
   * Add an ephemeral container to each selected pod.
   *
   * @param container name, image, target container, command, env, mounts
   */
  public addContainer(container: EphemeralContainerProps): void {
    this._containers.push(container);
  }

  /** @internal */
  public _toKube(): kruise.EphemeralJobSpec {
    const p = this.props;
    return _withPath(this, () => ({
      selector: this.selector._toKube() as kruise.EphemeralJobSpecSelector,
      replicas: p.replicas,
      parallelism: p.parallelism,
      template: { ephemeralContainers: this._containers.map(renderContainer) },
      activeDeadlineSeconds: _seconds(p.activeDeadline, 'activeDeadline'),
      ttlSecondsAfterFinished: _seconds(p.ttlAfterFinished, 'ttlAfterFinished'),
      paused: p.paused,
    }));
  }
}

/** An ephemeral container as Kubernetes takes it: what was set, plus the two fields the webhook requires. */
function renderContainer(c: EphemeralContainerProps): k8s.EphemeralContainer {
  // cdk8s-plus renders the env, env-from and security context; its resources,
  // pull policy and (unset) security context defaults are not used
  const kube = new kplus.Container({
    name: c.name, image: c.image, envVariables: c.envVariables, envFrom: c.envFrom, securityContext: c.securityContext,
  })._toKube();
  return {
    name: c.name,
    image: c.image,
    targetContainerName: c.targetContainerName,
    command: c.command && [...c.command],
    args: c.args && [...c.args],
    workingDir: c.workingDir,
    // a pod gets a field selector's apiVersion from its defaults; the EphemeralJob webhook defaults nothing and requires it
    env: kube.env?.map(e => (e.valueFrom?.fieldRef && !e.valueFrom.fieldRef.apiVersion
      ? { ...e, valueFrom: { ...e.valueFrom, fieldRef: { ...e.valueFrom.fieldRef, apiVersion: 'v1' } } }
      : e)),
    envFrom: kube.envFrom,
    volumeMounts: c.volumeMounts && c.volumeMounts.length > 0
      ? c.volumeMounts.map(m => ({ name: m.volumeName, mountPath: m.path, readOnly: m.readOnly }))
      : undefined,
    imagePullPolicy: c.imagePullPolicy ?? defaultPullPolicy(c.image),
    terminationMessagePolicy: 'File',
    securityContext: c.securityContext ? kube.securityContext : undefined,
    stdin: c.stdin,
    tty: c.tty,
  };
}
