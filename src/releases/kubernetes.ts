/**
 * The cluster's Kubernetes, as part of an app's (or a command's) target:
 * its version as the API server's `/version` reports it, and its vendor.
 *
 * Given as `/version`'s gitVersion (`v1.31.4-eks-2d5f260`,
 * `v1.31.5-gke.1234000`, `v1.31.2`), as a minor (`1.31`), or read from a
 * saved `kubectl get --raw /version` (`{"major":"1","minor":"31+",
 * "gitVersion":"v1.31.4-eks-2d5f260",...}`). What the known failures of a
 * release read (./failures.ts) is the minor, and whether `/version`'s minor
 * has a suffix (`"31+"`): the API server's build adds `+` to the minor when
 * the gitVersion has a `-` part after the patch (Kubernetes
 * hack/lib/version.sh, `KUBE_GIT_MINOR+="+"`), which is why EKS
 * (`-eks-...`) and GKE (`-gke....`) answer `"31+"` and a cluster built from
 * an upstream tag (`v1.31.2`, AKS's too) answers `"31"`.
 */
import { ReleaseError } from './registry';

/** The vendor shapes of a cluster (the values of the public `KubernetesVendor` enum). */
export type VendorName = 'EKS' | 'GKE' | 'AKS' | 'OTHER';

/** How messages name a vendor. */
const VENDOR_TEXT: Readonly<Record<VendorName, string>> = { EKS: 'EKS', GKE: 'GKE', AKS: 'AKS', OTHER: 'another vendor' };

/** The vendors a gitVersion names: its `-` part. */
const GIT_VENDORS: ReadonlyArray<{ vendor: VendorName; test: RegExp }> = [
  { vendor: 'EKS', test: /^-eks-/ },
  { vendor: 'GKE', test: /^-gke\./ },
];

/** The cluster's Kubernetes, as far as it is known. */
export interface KubernetesCluster {
  /** The major and minor, unless only the vendor was declared. */
  readonly major?: number;
  readonly minor?: number;
  /** The patch, when a gitVersion or a release was given. */
  readonly patch?: number;
  /** `/version`'s gitVersion, when given (`v1.31.4-eks-2d5f260`). */
  readonly gitVersion?: string;
  /** `/version`'s minor as the API server answers it (`31+`), when read from a saved `/version`. */
  readonly minorText?: string;
  /** The vendor: declared, or read from the gitVersion (EKS, GKE); undefined when neither says. */
  readonly vendor?: VendorName;
  /**
   * Whether `/version`'s minor has a suffix (`"31+"`): read from a saved
   * `/version`, derived from a gitVersion, or an EKS or GKE cluster's;
   * undefined when nothing says (a minor alone of another vendor).
   */
  readonly minorSuffixed?: boolean;
}

/** A version given for the cluster's Kubernetes that cannot be read; the message says why and what to give. */
export class KubernetesVersionError extends ReleaseError {}

const HOW = 'give /version\'s gitVersion (e.g. v1.31.4-eks-2d5f260, as `kubectl version` prints the server\'s) or a minor (1.31)';

const GIT_VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(-[^+]*)?(\+.*)?$/;

/** The vendor a gitVersion names (EKS, GKE), if any. */
function vendorOfGit(dashPart: string | undefined): VendorName | undefined {
  if (!dashPart) return undefined;
  return GIT_VENDORS.find(v => v.test.test(dashPart))?.vendor;
}

/**
 * Read a Kubernetes version as a user gives it: `/version`'s gitVersion
 * (`v1.31.4-eks-2d5f260`, `v1.31.2`, `v1.31.4+k3s1`), a minor (`1.31`, or
 * `1.31+` as `/version` answers it on EKS and GKE). `vendor` is the one
 * declared beside it, if any; a gitVersion that names another vendor is an
 * error. `what` names where the value came from.
 */
export function parseKubernetes(text: string, what: string, vendor?: VendorName): KubernetesCluster {
  const given = String(text).trim();
  const minorOnly = /^v?(\d+)\.(\d+)(\+?)$/.exec(given);
  if (minorOnly) {
    const major = Number(minorOnly[1]);
    const minor = Number(minorOnly[2]);
    checkMajor(major, given, what);
    // EKS and GKE build from their own tags (`-eks-...`, `-gke....`), so their minor has the suffix
    const suffixed = minorOnly[3] === '+' || vendor === 'EKS' || vendor === 'GKE' ? true : undefined;
    return { major, minor, vendor, minorSuffixed: suffixed };
  }
  const m = GIT_VERSION.exec(given);
  if (!m || m[3] === undefined) {
    throw new KubernetesVersionError(`${what}: '${given}' is not a Kubernetes version; ${HOW}`);
  }
  const major = Number(m[1]);
  checkMajor(major, given, what);
  const gitVendor = vendorOfGit(m[4]);
  if (vendor !== undefined && gitVendor !== undefined && vendor !== gitVendor) {
    throw new KubernetesVersionError(`${what}: '${given}' is a gitVersion ${VENDOR_TEXT[gitVendor]} reports, but the vendor declared is ${VENDOR_TEXT[vendor]}; `
      + 'declare the vendor the cluster is (or leave it out: EKS and GKE are read from the gitVersion)');
  }
  const gitVersion = given.startsWith('v') ? given : `v${given}`;
  return { major, minor: Number(m[2]), patch: Number(m[3]), gitVersion, vendor: vendor ?? gitVendor, minorSuffixed: m[4] !== undefined };
}

function checkMajor(major: number, given: string, what: string): void {
  if (major !== 1) throw new KubernetesVersionError(`${what}: '${given}' is not a Kubernetes version (the major is 1); ${HOW}`);
}

/**
 * Whether `json` is what `kubectl get --raw /version` prints (the API
 * server's version.Info: `major`, `minor`, `gitVersion`, ...) or what
 * `kubectl version -o json` prints (its `serverVersion`).
 */
export function isVersionInfo(json: unknown): boolean {
  return versionInfoOf(json) !== undefined;
}

/**
 * The API server's version in a file's text, if that is what it holds: the
 * JSON `kubectl get --raw /version` (or `kubectl version -o json`) prints.
 */
export function versionInfoInText(text: string): unknown {
  if (!text.includes('gitVersion')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isVersionInfo(doc) ? doc : undefined;
}

function versionInfoOf(json: unknown): Record<string, unknown> | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  const info = (o.serverVersion !== null && typeof o.serverVersion === 'object' && o.kind === undefined ? o.serverVersion : o) as Record<string, unknown>;
  if (info.kind !== undefined || info.apiVersion !== undefined) return undefined;
  return typeof info.gitVersion === 'string' && typeof info.major === 'string' && typeof info.minor === 'string' ? info : undefined;
}

/**
 * The cluster a saved `/version` describes: its gitVersion, and its minor
 * as the API server answers it (the suffix is read from there, not derived).
 * `vendor` is the one declared beside it, if any.
 */
export function fromVersionInfo(json: unknown, what: string, vendor?: VendorName): KubernetesCluster {
  const info = versionInfoOf(json);
  if (!info) throw new KubernetesVersionError(`${what}: not the output of \`kubectl get --raw /version\` (major, minor and gitVersion); save it again with that command`);
  const git = parseKubernetes(String(info.gitVersion), `${what}: gitVersion`, vendor);
  const minor = String(info.minor);
  const m = /^(\d+)(.*)$/.exec(minor);
  if (!m || Number(m[1]) !== git.minor || String(info.major) !== String(git.major ?? '')) {
    throw new KubernetesVersionError(`${what}: major "${info.major}" and minor "${minor}" do not match gitVersion "${info.gitVersion}"; save it again with \`kubectl get --raw /version\``);
  }
  return { ...git, minorText: minor, minorSuffixed: m[2] !== '' };
}

/** A cluster of which only the vendor is declared. */
export function vendorOnly(vendor: VendorName): KubernetesCluster {
  return { vendor, minorSuffixed: vendor === 'EKS' || vendor === 'GKE' ? true : undefined };
}

/** How messages name the cluster's Kubernetes: `v1.31.4-eks-2d5f260`, `1.31 (EKS)`, `1.31`, `AKS`. */
export function kubernetesText(k: KubernetesCluster): string {
  if (k.minor === undefined) return k.vendor ?? 'unknown';
  const base = k.gitVersion ?? `${k.major}.${k.minor}${k.patch !== undefined ? `.${k.patch}` : ''}`;
  const vendorShown = k.vendor !== undefined && k.vendor !== 'OTHER' && !(k.gitVersion && vendorOfGit(GIT_VERSION.exec(k.gitVersion)?.[4]) === k.vendor);
  return vendorShown ? `${base} (${k.vendor})` : base;
}

/** How messages name the cluster: `Kubernetes v1.31.4-eks-2d5f260`, `Kubernetes 1.31 (AKS)`, or `EKS` when only the vendor is known. */
export function clusterText(k: KubernetesCluster): string {
  return k.minor === undefined ? k.vendor ?? 'the cluster' : `Kubernetes ${kubernetesText(k)}`;
}

/** How messages name `/version`'s minor of the cluster: `"31+"`, or `"31+"` derived. */
export function minorText(k: KubernetesCluster): string {
  return k.minorText ?? `${k.minor ?? 'N'}${k.minorSuffixed ? '+' : ''}`;
}

/** Why two descriptions of the cluster's Kubernetes cannot be the same cluster, or undefined when they can. */
export function kubernetesDisagreement(a: KubernetesCluster, b: KubernetesCluster): string | undefined {
  if (a.minor !== undefined && b.minor !== undefined && (a.major !== b.major || a.minor !== b.minor)) return 'a different minor';
  if (a.patch !== undefined && b.patch !== undefined && a.patch !== b.patch) return 'a different patch';
  if (a.gitVersion !== undefined && b.gitVersion !== undefined && a.gitVersion !== b.gitVersion) return 'a different gitVersion';
  if (a.vendor !== undefined && b.vendor !== undefined && a.vendor !== b.vendor) return 'a different vendor';
  if (a.minorSuffixed !== undefined && b.minorSuffixed !== undefined && a.minorSuffixed !== b.minorSuffixed) return 'a different /version minor';
  return undefined;
}

/** Of two descriptions of the same cluster, one that says everything either says. */
export function mergeKubernetes(a: KubernetesCluster, b: KubernetesCluster): KubernetesCluster {
  return {
    major: a.major ?? b.major,
    minor: a.minor ?? b.minor,
    patch: a.patch ?? b.patch,
    gitVersion: a.gitVersion ?? b.gitVersion,
    minorText: a.minorText ?? b.minorText,
    vendor: a.vendor ?? b.vendor,
    minorSuffixed: a.minorSuffixed ?? b.minorSuffixed,
  };
}

/** The vendor named by a command's flag (`eks`, `GKE`, ...), or undefined for a name that is none. */
export function vendorOfName(name: string): VendorName | undefined {
  const up = String(name).trim().toUpperCase();
  return (['EKS', 'GKE', 'AKS', 'OTHER'] as VendorName[]).find(v => v === up);
}
