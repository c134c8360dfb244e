/**
 * Kruise Rollouts: progressive delivery of a workload (canary steps with
 * traffic weights, A/B matches, blue-green) as a `Rollout`
 * (`rollouts.kruise.io/v1beta1`), with the traffic routed through an Ingress,
 * a Gateway API HTTPRoute or custom network resources.
 */
import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { _rolloutsL1 } from './_kruise-l1';
import type * as rollouts from '../imports/rollouts';
import { _objectLine } from './admission/engine';
import { WORKLOAD_TYPE, WORKLOAD_TYPE_LABEL as TYPE_LABEL, apiGroupOf } from './admission/rollout';
import type * as ReleasePlan from './plan/rollout-release';
import { RolloutReleaseStyle } from './plan/types';
import { _intOrString } from './strategies';
import { labelValueProblems } from './validation/names';
import { _renderForChecks } from './validation/render';
import { Warnings, fieldError } from './validation/report';
import { selectorMatches } from './validation/selectors';
import { WorkloadRef } from './workload-ref';

/** The workload annotation and label that name a release (see `RolloutOptions.rolloutId`). */
export const ROLLOUT_ID_KEY = 'rollouts.kruise.io/rollout-id';
/** The workload label the Kruise Rollouts webhooks select workloads by. */
export const WORKLOAD_TYPE_LABEL = TYPE_LABEL;

/** Whole seconds of a Duration, or an error naming `what`. */
function wholeSeconds(d: Duration, what: string): number {
  const ms = d.toMilliseconds({ integral: false });
  const s = ms / 1000;
  if (!Number.isFinite(s) || !Number.isInteger(s) || s < 0) {
    const shown = Number.isFinite(ms) ? `${s} seconds` : `${ms} milliseconds`;
    throw new Error(`${what}: ${shown} is not a whole, non-negative number of seconds; use e.g. Duration.seconds(30) or Duration.minutes(10)`);
  }
  if (s > 2147483647) throw new Error(`${what}: ${s} seconds is more than the 2147483647 a Rollout can hold; use a shorter duration`);
  return s;
}

/** How long a step waits before the next one starts. */
export class RolloutPause {
  /**
   * Go on to the next step after this long.
   *
   * @param duration whole seconds (e.g. `Duration.minutes(10)`); 0 goes on at once
   */
  public static after(duration: Duration): RolloutPause {
    return new RolloutPause(wholeSeconds(duration, 'RolloutPause.after()'));
  }

  /**
   * Wait until someone approves the step (`kubectl-kruise rollout approve`,
   * or a patch of the Rollout's status).
   */
  public static manual(): RolloutPause {
    return new RolloutPause(undefined);
  }

  private constructor(
    /** Seconds to wait, or undefined for a manual approval. */
    public readonly seconds: number | undefined,
  ) {}

  /** @internal */
  public _toKube(): rollouts.RolloutSpecStrategyCanaryStepsPause {
    return { duration: this.seconds };
  }
}

/** How a header or query parameter value is compared. */
export enum RolloutMatchType {
  /** Equal to the value. */
  EXACT = 'Exact',
  /** Matches the value as a regular expression. */
  REGULAR_EXPRESSION = 'RegularExpression',
}

/** How a request path is compared. */
export enum RolloutPathMatchType {
  /** Equal to the value. */
  EXACT = 'Exact',
  /** Starts with the value, element by element. */
  PATH_PREFIX = 'PathPrefix',
  /** Matches the value as a regular expression. */
  REGULAR_EXPRESSION = 'RegularExpression',
}

/** A header or query parameter a request must carry to reach the canary. */
export interface RolloutValueMatch {
  /** The header or parameter name (an HTTP token, e.g. `x-canary`). */
  readonly name: string;
  /** The value. */
  readonly value: string;
  /**
   * How the value is compared.
   *
   * @default RolloutMatchType.EXACT
   */
  readonly type?: RolloutMatchType;
}

/** A request path a request must have to reach the canary. */
export interface RolloutPathMatch {
  /** The path, e.g. `/api`. */
  readonly value: string;
  /**
   * How the path is compared.
   *
   * @default RolloutPathMatchType.PATH_PREFIX
   */
  readonly type?: RolloutPathMatchType;
}

/**
 * Requests that go to the canary whatever the traffic weight (A/B testing):
 * every condition of one match must hold; a request is routed to the canary
 * when it meets any of the step's matches.
 */
export interface RolloutTrafficMatch {
  /**
   * Headers the request must carry.
   *
   * @default - none
   */
  readonly headers?: RolloutValueMatch[];
  /**
   * Query parameters the request must carry (Gateway API and providers that support them).
   *
   * @default - none
   */
  readonly queryParams?: RolloutValueMatch[];
  /**
   * The request path (Gateway API and providers that support it).
   *
   * @default - any path
   */
  readonly path?: RolloutPathMatch;
}

/** Changes to the headers of the requests sent to the canary. */
export interface RolloutRequestHeaderModifier {
  /**
   * Headers set (replacing a value the request has), by name.
   *
   * @default - none
   */
  readonly set?: { [name: string]: string };
  /**
   * Headers added (next to a value the request has), by name.
   *
   * @default - none
   */
  readonly add?: { [name: string]: string };
  /**
   * Headers removed.
   *
   * @default - none
   */
  readonly remove?: string[];
}

/** One step of a release. */
export interface RolloutStep {
  /**
   * The pods of the new version at this step: a number of pods, or a whole
   * percentage of the workload's replicas. Must not shrink from one step to
   * the next.
   */
  readonly replicas: kplus.PercentOrAbsolute;

  /**
   * Percent of the traffic sent to the new version (0 to 100; 0 only in a
   * blue-green release). Needs a traffic routing.
   *
   * @default - no traffic split: the new pods take their share of the Service
   */
  readonly traffic?: number;

  /**
   * Requests sent to the new version whatever the weight (A/B testing).
   * Needs a traffic routing.
   *
   * @default - none
   */
  readonly matches?: RolloutTrafficMatch[];

  /**
   * How long to wait before the next step.
   *
   * @default - wait for a manual approval (as `RolloutPause.manual()`; not written)
   */
  readonly pause?: RolloutPause;

  /**
   * Changes to the headers of the requests sent to the new version.
   *
   * @default - none
   */
  readonly requestHeaderModifier?: RolloutRequestHeaderModifier;
}

/** An Ingress provider of Kruise Rollouts (the `classType` of an Ingress traffic routing). */
export class RolloutIngressProvider {
  /** ingress-nginx (the default). */
  public static readonly NGINX = new RolloutIngressProvider('nginx');
  /** Alibaba Cloud ALB. */
  public static readonly ALIYUN_ALB = new RolloutIngressProvider('aliyun-alb');
  /** Alibaba Cloud MSE. */
  public static readonly MSE = new RolloutIngressProvider('mse');
  /** Higress. */
  public static readonly HIGRESS = new RolloutIngressProvider('higress');

  /**
   * A provider with a Lua script of its own (key
   * `lua.traffic.routing.ingress.<name>` of the ConfigMap
   * `kruise-rollout-configuration` in the Kruise Rollouts namespace).
   *
   * @param name the class type
   */
  public static custom(name: string): RolloutIngressProvider {
    return new RolloutIngressProvider(name);
  }

  private constructor(public readonly name: string) {}
}

/** A custom resource that routes the traffic (e.g. an Istio VirtualService). */
export interface RolloutNetworkRef {
  /** apiVersion, e.g. `networking.istio.io/v1beta1`. */
  readonly apiVersion: string;
  /** kind, e.g. `VirtualService`. */
  readonly kind: string;
  /** name, in the Rollout's namespace. */
  readonly name: string;
}

/** What every traffic routing takes: the stable Service and the grace period. */
export interface RolloutTrafficRoutingCommonOptions {
  /**
   * The stable Service of the workload (in the Rollout's namespace). The
   * controller creates `<service>-canary` next to it.
   *
   * @default - the Service made by the workload's `exposeViaService()`
   */
  readonly service?: kplus.Service;

  /**
   * The stable Service by name, when it is not a construct of this app.
   *
   * @default - use `service`
   */
  readonly serviceName?: string;

  /**
   * How long to wait after each traffic change before the step goes on.
   *
   * @default - 3 seconds (the Kruise Rollouts default; not written)
   */
  readonly gracePeriod?: Duration;
}

/** An Ingress that splits the traffic. */
export interface RolloutIngressRoutingOptions extends RolloutTrafficRoutingCommonOptions {
  /**
   * The Ingress that routes to the stable Service. The controller creates
   * `<ingress>-canary` next to it.
   *
   * @default - use `ingressName`
   */
  readonly ingress?: kplus.Ingress;

  /**
   * The Ingress by name, when it is not a construct of this app.
   *
   * @default - use `ingress`
   */
  readonly ingressName?: string;

  /**
   * The Ingress provider.
   *
   * @default RolloutIngressProvider.NGINX (not written)
   */
  readonly provider?: RolloutIngressProvider;
}

/** A Gateway API HTTPRoute that splits the traffic. */
export interface RolloutGatewayRoutingOptions extends RolloutTrafficRoutingCommonOptions {
  /** The HTTPRoute (served as `gateway.networking.k8s.io/v1beta1`) that routes to the stable Service. */
  readonly httpRouteName: string;
}

/** Custom resources that split the traffic. */
export interface RolloutCustomRoutingOptions extends RolloutTrafficRoutingCommonOptions {
  /** The resources (Istio VirtualService and DestinationRule are built in; others need a Lua script). */
  readonly refs: RolloutNetworkRef[];
}

/** Several providers at once (the controller drives them together). */
export interface RolloutTrafficRoutingOptions extends RolloutTrafficRoutingCommonOptions {
  /**
   * An Ingress.
   *
   * @default - none
   */
  readonly ingress?: kplus.Ingress;
  /**
   * An Ingress by name.
   *
   * @default - none
   */
  readonly ingressName?: string;
  /**
   * The Ingress provider.
   *
   * @default RolloutIngressProvider.NGINX (not written)
   */
  readonly ingressProvider?: RolloutIngressProvider;
  /**
   * A Gateway API HTTPRoute by name.
   *
   * @default - none
   */
  readonly httpRouteName?: string;
  /**
   * Custom resources.
   *
   * @default - none
   */
  readonly customRefs?: RolloutNetworkRef[];
}

/** Where the traffic split of a release happens. */
export class RolloutTrafficRouting {
  /**
   * Split the traffic with an Ingress (ingress-nginx by default).
   *
   * @param options the Ingress (construct or name), its provider and the Service
   */
  public static ingress(options: RolloutIngressRoutingOptions): RolloutTrafficRouting {
    return RolloutTrafficRouting.of({ ...options, ingressProvider: options.provider });
  }

  /**
   * Split the traffic with a Gateway API HTTPRoute.
   *
   * @param options the HTTPRoute's name and the Service
   */
  public static gatewayHttpRoute(options: RolloutGatewayRoutingOptions): RolloutTrafficRouting {
    return RolloutTrafficRouting.of(options);
  }

  /**
   * Split the traffic with custom resources (e.g. an Istio VirtualService).
   *
   * @param options the resources and the Service
   */
  public static custom(options: RolloutCustomRoutingOptions): RolloutTrafficRouting {
    return RolloutTrafficRouting.of({ ...options, customRefs: options.refs });
  }

  /**
   * Split the traffic with several providers at once.
   *
   * @param options at least one of ingress / ingressName, httpRouteName, customRefs
   */
  public static of(options: RolloutTrafficRoutingOptions): RolloutTrafficRouting {
    const where = 'RolloutTrafficRouting';
    if (options.service && options.serviceName !== undefined) throw new Error(`${where}: 'service' and 'serviceName' are both set; give the stable Service one way`);
    if (options.ingress && options.ingressName !== undefined) throw new Error(`${where}: 'ingress' and 'ingressName' are both set; give the Ingress one way`);
    const hasIngress = options.ingress !== undefined || options.ingressName !== undefined;
    if (!hasIngress && options.httpRouteName === undefined && options.customRefs === undefined) {
      throw new Error(`${where}: no provider; give an Ingress (ingress or ingressName), a Gateway API HTTPRoute (httpRouteName) or custom resources (customRefs)`);
    }
    if (options.ingressProvider && !hasIngress) throw new Error(`${where}: an Ingress provider (${options.ingressProvider.name}) is set without an Ingress; give ingress or ingressName`);
    const grace = options.gracePeriod === undefined ? undefined : wholeSeconds(options.gracePeriod, `${where} gracePeriod`);
    return new RolloutTrafficRouting(options, grace, undefined);
  }

  /**
   * Use a TrafficRouting object (rollouts.kruise.io) of the same namespace
   * instead of routing here (`trafficRoutingRef`).
   *
   * @param name the TrafficRouting's name
   */
  public static fromTrafficRoutingName(name: string): RolloutTrafficRouting {
    return new RolloutTrafficRouting({}, undefined, name);
  }

  private constructor(
    /** @internal */ public readonly _options: RolloutTrafficRoutingOptions,
    private readonly graceSeconds: number | undefined,
    /** The TrafficRouting object used instead, when set. */
    public readonly trafficRoutingName: string | undefined,
  ) {}

  /**
   * The Ingress construct, when one is given.
   * @internal
   */
  public get _ingress(): kplus.Ingress | undefined {
    return this._options.ingress;
  }

  /** @internal */
  public _toKube(service: string | undefined): rollouts.RolloutSpecStrategyCanaryTrafficRoutings[] | undefined {
    if (this.trafficRoutingName !== undefined) return undefined;
    const o = this._options;
    const ingressName = o.ingress?.name ?? o.ingressName;
    return [{
      service: service ?? '',
      gracePeriodSeconds: this.graceSeconds,
      ingress: ingressName !== undefined ? { name: ingressName, classType: o.ingressProvider?.name } : undefined,
      gateway: o.httpRouteName !== undefined ? { httpRouteName: o.httpRouteName } : undefined,
      customNetworkRefs: o.customRefs?.map(r => ({ apiVersion: r.apiVersion, kind: r.kind, name: r.name })),
    }];
  }
}

/** What canary and blue-green releases both take. */
export interface RolloutReleaseOptions {
  /** The steps, in order (at least one). */
  readonly steps: RolloutStep[];

  /**
   * Where the traffic is split.
   *
   * @default - no traffic routing: steps change pods only
   */
  readonly trafficRouting?: RolloutTrafficRouting;

  /**
   * Pods (or percent) of a step that may fail to become ready before the
   * release stops.
   *
   * @default - every pod of a step must be ready
   */
  readonly failureThreshold?: kplus.PercentOrAbsolute;

  /**
   * Do not create the `<service>-canary` Service (custom network resources only).
   *
   * @default false
   */
  readonly disableGenerateCanaryService?: boolean;
}

/** A canary release: new pods in batches, traffic shifted by step. */
export interface RolloutCanaryOptions extends RolloutReleaseOptions {
  /**
   * Run the new pods in an extra canary Deployment instead of updating the
   * workload's own pods in batches (Deployments only; any other kind is
   * updated in place whatever this says).
   *
   * @default false
   */
  readonly enableExtraWorkloadForCanary?: boolean;

  /**
   * Labels and annotations added to the pods of the extra canary Deployment.
   *
   * @default - none
   */
  readonly patchPodTemplateMetadata?: RolloutPodTemplateMetadata;
}

/** Labels and annotations of canary pods. */
export interface RolloutPodTemplateMetadata {
  /**
   * Labels.
   *
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Annotations.
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** A blue-green release: all new pods next to the old ones, traffic switched by step (Deployments and CloneSets). */
export interface RolloutBlueGreenOptions extends RolloutReleaseOptions {}

/** The kind of release. */
export enum RolloutStrategyType {
  /** Canary steps. */
  CANARY = 'canary',
  /** Blue-green steps. */
  BLUE_GREEN = 'blueGreen',
}

/** How a Rollout releases a new version. */
export class RolloutStrategy {
  /**
   * A canary release.
   *
   * @param options steps, traffic routing, extra canary workload
   */
  public static canary(options: RolloutCanaryOptions): RolloutStrategy {
    return new RolloutStrategy(RolloutStrategyType.CANARY, options);
  }

  /**
   * A blue-green release (Deployments and CloneSets).
   *
   * @param options steps and traffic routing
   */
  public static blueGreen(options: RolloutBlueGreenOptions): RolloutStrategy {
    return new RolloutStrategy(RolloutStrategyType.BLUE_GREEN, options);
  }

  private constructor(
    /** Canary or blue-green. */
    public readonly type: RolloutStrategyType,
    private readonly options: RolloutCanaryOptions,
  ) {}

  /** The steps. */
  public get steps(): RolloutStep[] {
    return [...this.options.steps];
  }

  /** The traffic routing, when set. */
  public get trafficRouting(): RolloutTrafficRouting | undefined {
    return this.options.trafficRouting;
  }

  /** @internal */
  public _toKube(service: string | undefined): rollouts.RolloutSpecStrategy {
    const o = this.options;
    const release: rollouts.RolloutSpecStrategyCanary = {
      steps: o.steps.map(renderStep),
      trafficRoutings: o.trafficRouting?._toKube(service),
      trafficRoutingRef: o.trafficRouting?.trafficRoutingName,
      failureThreshold: _intOrString(o.failureThreshold, _rolloutsL1().RolloutSpecStrategyCanaryFailureThreshold),
      disableGenerateCanaryService: o.disableGenerateCanaryService,
    };
    if (this.type === RolloutStrategyType.BLUE_GREEN) {
      // the blue-green block has the same fields as the canary one, minus the two below
      return { blueGreen: release as unknown as rollouts.RolloutSpecStrategyBlueGreen };
    }
    const meta = o.patchPodTemplateMetadata;
    return {
      canary: {
        ...release,
        enableExtraWorkloadForCanary: o.enableExtraWorkloadForCanary,
        patchPodTemplateMetadata: meta && (meta.labels || meta.annotations) ? { labels: meta.labels, annotations: meta.annotations } : undefined,
      },
    };
  }
}

const byName = (m: { [name: string]: string } | undefined) =>
  (m === undefined ? undefined : Object.entries(m).map(([name, value]) => ({ name, value })));

function renderMatch(m: RolloutTrafficMatch): rollouts.RolloutSpecStrategyCanaryStepsMatches {
  const values = (list: RolloutValueMatch[] | undefined) => list?.map(v => ({ name: v.name, value: v.value, type: v.type as any }));
  return {
    headers: values(m.headers),
    queryParams: values(m.queryParams),
    path: m.path ? { value: m.path.value, type: m.path.type as any } : undefined,
  };
}

function renderStep(s: RolloutStep): rollouts.RolloutSpecStrategyCanarySteps {
  const h = s.requestHeaderModifier;
  return {
    replicas: _intOrString(s.replicas, _rolloutsL1().RolloutSpecStrategyCanaryStepsReplicas),
    traffic: s.traffic === undefined ? undefined : `${s.traffic}%`,
    matches: s.matches?.map(renderMatch),
    pause: s.pause?._toKube(),
    requestHeaderModifier: h ? { set: byName(h.set), add: byName(h.add), remove: h.remove ? [...h.remove] : undefined } : undefined,
  };
}

/** Options of a Rollout, whatever it releases (see `CloneSet.rollout()`). */
export interface RolloutOptions {
  /** How new versions are released. */
  readonly strategy: RolloutStrategy;

  /**
   * Metadata of the Rollout.
   *
   * @default - the workload's name, in the workload's namespace
   */
  readonly metadata?: ApiObjectMetadata;

  /**
   * Leave the workload alone: updates roll out as the workload's own
   * strategy says. Disabling a Rollout during a release finishes the
   * release at once.
   *
   * @default false
   */
  readonly disabled?: boolean;

  /**
   * Pause the release in progress.
   *
   * @default false
   */
  readonly paused?: boolean;

  /**
   * A release id, written as the workload's `rollouts.kruise.io/rollout-id`
   * annotation and label. With it, a release starts when the id changes
   * (and only then: a template change under the same id is rolled out by
   * the workload's own strategy).
   *
   * @default - a release starts on every change of the pod template
   */
  readonly rolloutId?: string;

  /**
   * Roll back in batches (the steps' sizes) instead of all pods at once
   * (`rollouts.kruise.io/rollback-in-batch`; CloneSets and StatefulSets
   * without traffic routing only).
   *
   * @default false
   */
  readonly rollbackInBatch?: boolean;
}

/** Properties of a Rollout. */
export interface RolloutProps extends RolloutOptions {
  /**
   * The workload to release: a CloneSet, AdvancedStatefulSet or
   * AdvancedDaemonSet, or a kplus Deployment or StatefulSet.
   *
   * @default - use workloadRef
   */
  readonly workload?: kplus.Workload;

  /**
   * The workload to release, by reference (one that is not a construct of this app).
   *
   * @default - use workload
   */
  readonly workloadRef?: WorkloadRef;
}

/**
 * A Kruise Rollouts `Rollout` (`rollouts.kruise.io/v1beta1`): every update of
 * the workload's pod template is released step by step (canary batches,
 * traffic weights, A/B matches, or blue-green) instead of all at once.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: rollouts.kruise.io/v1beta1
 * kind: Rollout
 * spec:
 *   workloadRef: { apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web }
 *   strategy:
 *     canary:
 *       steps: [{ replicas: 1, traffic: "10%" }, { replicas: "50%", traffic: "50%" }, { replicas: "100%" }]
 *       trafficRoutings: [{ service: web, ingress: { name: web } }]
 * ```
 */
export class Rollout extends Construct {
  /**
   * A Rollout of a kplus Deployment or StatefulSet (or any workload),
   * created as its child with id 'Rollout'.
   *
   * @param workload the workload
   * @param options the strategy and settings
   */
  public static of(workload: kplus.Workload, options: RolloutOptions): Rollout {
    const existing = workload.node.tryFindChild('Rollout');
    if (existing) {
      throw new Error(`a Rollout of '${workload.node.path}' already exists at '${existing.node.path}'; a workload can have one Rollout only, so put every step into one strategy`);
    }
    return new Rollout(workload, 'Rollout', { ...options, workload });
  }

  /** The L1 object. */
  public readonly apiObject: ApiObject;
  /** The release strategy. */
  public readonly strategy: RolloutStrategy;
  /** The workload, when it is a construct of this app. */
  public readonly workload?: kplus.Workload;
  private readonly props: RolloutProps;
  /** The workload's object, when it is a construct of this app (its apiVersion follows the app's target). */
  private readonly workloadObject?: ApiObject;

  /**
   * The workload reference written into the Rollout (of a workload construct:
   * the API version the app's target serves, read when asked).
   */
  public get workloadRef(): WorkloadRef {
    const t = this.workloadObject;
    return t ? { apiVersion: t.apiVersion, kind: t.kind, name: t.name } : { ...this.props.workloadRef! };
  }

  constructor(scope: Construct, id: string, props: RolloutProps) {
    super(scope, id);
    this.props = props;
    this.strategy = props.strategy;
    if (props.workload && props.workloadRef) {
      throw new Error(`Rollout at '${this.node.path}': 'workload' and 'workloadRef' are both set; name the workload one way`);
    }
    if (!props.workload && !props.workloadRef) {
      throw new Error(`Rollout at '${this.node.path}': no workload; set 'workload' (a construct) or 'workloadRef'`);
    }
    this.workload = props.workload;
    const target = props.workload ? ApiObject.of(props.workload) : undefined;
    this.workloadObject = target;

    if (props.rolloutId !== undefined) {
      const problems = labelValueProblems(props.rolloutId);
      if (problems.length > 0 || props.rolloutId === '') {
        throw new Error(`Rollout at '${this.node.path}': rolloutId ${JSON.stringify(props.rolloutId)} ${problems[0] ?? 'is empty'}; it is written as a label, so use up to 63 letters, digits, '-', '_' or '.'`);
      }
      if (!target) throw new Error(`Rollout at '${this.node.path}': rolloutId is written onto the workload, so it needs 'workload' (a construct), not 'workloadRef'`);
    }
    if (target) {
      // The webhooks select workloads by this label; the controller adds it only once it has seen
      // the Rollout, so an update applied before that would not be released step by step.
      const type = WORKLOAD_TYPE[`${apiGroupOf(target.apiVersion)}/${target.kind}`];
      if (type) target.metadata.addLabel(WORKLOAD_TYPE_LABEL, type);
      if (props.rolloutId !== undefined) {
        target.metadata.addAnnotation(ROLLOUT_ID_KEY, props.rolloutId);
        target.metadata.addLabel(ROLLOUT_ID_KEY, props.rolloutId);
      }
    }

    const annotations = { ...(props.metadata?.annotations ?? {}) };
    if (props.rollbackInBatch) annotations['rollouts.kruise.io/rollback-in-batch'] = 'true';
    this.apiObject = new (_rolloutsL1().KubeRollout)(this, 'Resource', {
      metadata: {
        ...props.metadata,
        name: props.metadata?.name ?? target?.name,
        namespace: props.metadata?.namespace ?? target?.metadata.namespace,
        annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
      },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    this.node.addValidation({ validate: () => this.validateWiring().map(l => _objectLine(this.apiObject, l)) });
    Warnings._addProducer(this, () => this.warnings().map(l => _objectLine(this.apiObject, l)));
  }

  /** What the release will do that the manifests do not show: a blue-green CloneSet release that stalls. */
  private warnings(): string[] {
    if (!this.workload || this.strategy.type !== RolloutStrategyType.BLUE_GREEN || this.props.disabled) return [];
    const workload = _renderForChecks(ApiObject.of(this.workload));
    if (apiGroupOf(String(workload.apiVersion)) !== 'apps.kruise.io' || workload.kind !== 'CloneSet') return [];
    if ((workload.spec?.updateStrategy?.type ?? 'ReCreate') !== 'ReCreate') return [];
    const replicas = workload.spec?.replicas ?? 1;
    const rendered = _renderForChecks(this.apiObject).spec?.strategy?.blueGreen?.steps ?? [];
    const steps: Array<string | number | undefined> = rendered.map((s: any) => s.replicas);
    if (replicas <= 0 || steps.length === 0) return [];
    // the update planner's model of the CloneSet's surge under a blue-green release (loaded only here)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { stepPods } = require('./plan/rollout-release') as typeof ReleasePlan;
    const counts = stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.BLUE_GREEN, replicas, steps);
    const at = counts.findIndex(c => c.stallsShortOf !== undefined);
    if (at < 0) return [];
    const before = at > 0 ? counts[at - 1].newPods! : 0;
    return [fieldError(`spec.strategy.blueGreen.steps[${at}].replicas`, steps[at], `stops the blue-green release of CloneSet "${workload.metadata?.name}" for good: with ${before} of ${replicas} pods `
      + `already new, the CloneSet surges at most ${counts[at].newPods} new pods, not the ${counts[at].stallsShortOf} step ${at + 1} asks for, so the step never pauses and the release never completes`,
    'make the first step the largest (one step of 100% creates every new pod at once), or keep each later step within max(new pods so far, replicas - new pods so far)')];
  }

  /** The stable Service: given, or the one the workload exposes. */
  private stableService(): { name?: string; service?: kplus.Service; problem?: [string, string] } {
    const routing = this.strategy.trafficRouting;
    if (!routing || routing.trafficRoutingName !== undefined) return {};
    const o = routing._options;
    if (o.service) return { name: o.service.name, service: o.service };
    if (o.serviceName !== undefined) return { name: o.serviceName };
    const exposed = (this.workload?.node.children ?? []).filter((c): c is kplus.Service => c instanceof kplus.Service);
    if (exposed.length === 1) return { name: exposed[0].name, service: exposed[0] };
    if (exposed.length > 1) {
      return { problem: [`is not given and the workload exposes ${exposed.length} Services (${exposed.map(s => `'${s.node.path}'`).join(', ')}), so the stable one is unclear`, 'pass \'service\' to the traffic routing'] };
    }
    return { problem: [`is not given and ${this.workload ? 'the workload exposes no Service' : 'there is no workload construct to take it from'}`, 'call exposeViaService() on the workload first, or pass \'service\' or \'serviceName\' to the traffic routing'] };
  }

  /** @internal */
  public _toKube(): rollouts.RolloutSpec {
    return {
      workloadRef: { ...this.workloadRef },
      strategy: { ...this.strategy._toKube(this.stableService().name), paused: this.props.paused },
      disabled: this.props.disabled,
    };
  }

  /** What only the constructs know: the Service and Ingress it routes through, in its namespace, selecting its pods. */
  private validateWiring(): string[] {
    const errors: string[] = [];
    const ns = this.apiObject.metadata.namespace ?? 'default';
    const stable = this.stableService();
    const at = `spec.strategy.${this.strategy.type}.trafficRoutings[0]`;
    if (stable.problem) errors.push(fieldError(`${at}.service`, undefined, ...stable.problem));
    const nsOf = (c: IConstruct) => (ApiObject.of(c).metadata.namespace ?? 'default');
    if (stable.service) {
      if (nsOf(stable.service) !== ns) {
        errors.push(fieldError(`${at}.service`, stable.name, `is the Service at '${stable.service.node.path}' in namespace ${nsOf(stable.service)}, not in the Rollout's namespace ${ns}`, 'route through a Service of the workload\'s namespace'));
      }
      const podLabels = this.podLabels();
      const selector = _renderForChecks(ApiObject.of(stable.service)).spec?.selector;
      if (podLabels && selector && !selectorMatches({ matchLabels: selector }, podLabels)) {
        errors.push(fieldError(`${at}.service`, stable.name, `selects ${JSON.stringify(selector)}, which the pods of ${this.workloadRef.kind} "${this.workloadRef.name}" (labels ${JSON.stringify(podLabels)}) do not carry, so no traffic reaches the workload`,
          'route through a Service that selects the workload\'s pods (e.g. the one exposeViaService() makes)'));
      }
    }
    const ingress = this.strategy.trafficRouting?._ingress;
    if (ingress) {
      if (nsOf(ingress) !== ns) {
        errors.push(fieldError(`${at}.ingress.name`, ingress.name, `is the Ingress at '${ingress.node.path}' in namespace ${nsOf(ingress)}, not in the Rollout's namespace ${ns}`, 'route through an Ingress of the workload\'s namespace'));
      }
      const backends = ingressServices(_renderForChecks(ApiObject.of(ingress)));
      if (stable.name !== undefined && !backends.includes(stable.name)) {
        errors.push(fieldError(`${at}.ingress.name`, ingress.name, `routes to ${backends.length > 0 ? `Service ${backends.map(b => `"${b}"`).join(', ')}` : 'no Service'}, not to the stable Service "${stable.name}", so the canary Ingress the controller copies from it would not reach the workload`,
          `add a rule to the Ingress whose backend is the Service "${stable.name}" (kplus.IngressBackend.fromService(service))`));
      }
    }
    return errors;
  }

  /** The pod labels of the workload construct, when there is one. */
  private podLabels(): Record<string, string> | undefined {
    if (!this.workload) return undefined;
    return _renderForChecks(ApiObject.of(this.workload)).spec?.template?.metadata?.labels;
  }
}

/** Every Service an Ingress routes to (default backend and rules). */
function ingressServices(json: any): string[] {
  const out: string[] = [];
  const add = (b: any) => { if (b?.service?.name) out.push(b.service.name); };
  add(json?.spec?.defaultBackend);
  for (const r of json?.spec?.rules ?? []) for (const p of r.http?.paths ?? []) add(p.backend);
  return [...new Set(out)];
}
