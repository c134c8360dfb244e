/**
 * Where the webhook serving certificate of kruise-manager comes from.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { NAMES } from './rbac';
import { dns1123SubdomainProblems, qualifiedNameProblems } from '../validation/names';

/** The annotation cert-manager's CA injector reads. */
const CERT_MANAGER_INJECT_ANNOTATION = 'cert-manager.io/inject-ca-from';

/** Options for `WebhookCertificates.certManager()`. */
export interface WebhookCertificatesCertManagerOptions {
  /**
   * Create the cert-manager `Certificate` that writes the serving certificate
   * into the `kruise-webhook-certs` Secret of the install namespace.
   *
   * @default true
   */
  readonly createCertificate?: boolean;

  /**
   * Name of the `Certificate` (created here or by you); the CA injector
   * annotation points at `<install namespace>/<certificateName>`.
   *
   * @default "kruise-webhook-cert"
   */
  readonly certificateName?: string;

  /**
   * Name of the issuer that signs the certificate. When not set, a
   * self-signed `Issuer` named `kruise-selfsigned-issuer` is created in the
   * install namespace and used.
   *
   * @default - a self-signed Issuer created in the install namespace
   */
  readonly issuerName?: string;

  /**
   * Kind of the issuer named by `issuerName`.
   *
   * @default CertManagerIssuerKind.ISSUER
   */
  readonly issuerKind?: CertManagerIssuerKind;
}

/** Options for `WebhookCertificates.external()`. */
export interface WebhookCertificatesExternalOptions {
  /**
   * Annotations written on both webhook configurations and on the CRDs that
   * have a conversion webhook (statefulsets, daemonsets, sidecarsets), for
   * the tool that injects the caBundle.
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** Kinds of cert-manager issuers. */
export enum CertManagerIssuerKind {
  /** A namespaced `Issuer` in the install namespace. */
  ISSUER = 'Issuer',
  /** A `ClusterIssuer`. */
  CLUSTER_ISSUER = 'ClusterIssuer',
}

/** How the mode is rendered. */
enum Mode { SELF_MANAGED, CERT_MANAGER, EXTERNAL }

/**
 * Where kruise-manager's webhook serving certificate comes from.
 *
 * - `selfManaged()` (the default, as the chart does): kruise-manager creates
 *   a CA and a serving certificate in the `kruise-webhook-certs` Secret and
 *   writes the caBundle into the webhook configurations and CRDs itself.
 * - `certManager()`: cert-manager issues the certificate into that Secret and
 *   its CA injector writes the caBundles (`EnableExternalCerts` is turned on).
 * - `external()`: anything else writes the Secret (keys `ca.crt`, `tls.crt`,
 *   `tls.key`) and the caBundles (`EnableExternalCerts` is turned on).
 */
export class WebhookCertificates {
  /** kruise-manager creates and rotates its own certificates. */
  public static selfManaged(): WebhookCertificates {
    return new WebhookCertificates(Mode.SELF_MANAGED, {}, {});
  }

  /**
   * cert-manager issues the certificate and injects the CA.
   *
   * @param options what to create
   */
  public static certManager(options: WebhookCertificatesCertManagerOptions = {}): WebhookCertificates {
    return new WebhookCertificates(Mode.CERT_MANAGER, options, {});
  }

  /**
   * The certificate Secret and the caBundles are provided by something else.
   *
   * @param options annotations for the CA injection tool
   */
  public static external(options: WebhookCertificatesExternalOptions = {}): WebhookCertificates {
    return new WebhookCertificates(Mode.EXTERNAL, {}, options);
  }

  private constructor(
    private readonly mode: Mode,
    private readonly certManagerOptions: WebhookCertificatesCertManagerOptions,
    private readonly externalOptions: WebhookCertificatesExternalOptions,
  ) {}

  /**
   * Whether the certificates come from outside kruise-manager (the
   * `EnableExternalCerts` gate).
   */
  public get isExternal(): boolean {
    return this.mode !== Mode.SELF_MANAGED;
  }

  /**
   * Annotations for the webhook configurations and the conversion CRDs.
   * @internal
   */
  public _annotations(namespace: string): Record<string, string> {
    if (this.mode === Mode.CERT_MANAGER) {
      return { [CERT_MANAGER_INJECT_ANNOTATION]: `${namespace}/${this.certificateName}` };
    }
    if (this.mode === Mode.EXTERNAL) return { ...(this.externalOptions.annotations ?? {}) };
    return {};
  }

  private get certificateName(): string {
    return this.certManagerOptions.certificateName ?? 'kruise-webhook-cert';
  }

  /**
   * Create the cert-manager objects, if any.
   * @internal
   */
  public _addObjects(scope: Construct, namespace: string): ApiObject[] {
    if (this.mode !== Mode.CERT_MANAGER) return [];
    const o = this.certManagerOptions;
    const out: ApiObject[] = [];
    let issuerName = o.issuerName;
    let issuerKind = o.issuerKind ?? CertManagerIssuerKind.ISSUER;
    if (issuerName === undefined) {
      issuerName = 'kruise-selfsigned-issuer';
      issuerKind = CertManagerIssuerKind.ISSUER;
      out.push(new ApiObject(scope, 'Issuer', {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Issuer',
        metadata: { name: issuerName, namespace },
        spec: { selfSigned: {} },
      }));
    }
    if (o.createCertificate ?? true) {
      const host = `${NAMES.webhookService}.${namespace}.svc`;
      out.push(new ApiObject(scope, 'Certificate', {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: this.certificateName, namespace },
        spec: {
          dnsNames: [host, `${host}.cluster.local`],
          issuerRef: { kind: issuerKind, name: issuerName },
          secretName: NAMES.webhookSecret,
        },
      }));
    }
    return out;
  }

  /**
   * Problems with the options, as `[field, value, problem, fix]`.
   * @internal
   */
  public _problems(): Array<[string, unknown, string, string]> {
    const out: Array<[string, unknown, string, string]> = [];
    const o = this.certManagerOptions;
    if (this.mode === Mode.CERT_MANAGER && o.issuerKind !== undefined && o.issuerName === undefined) {
      out.push(['certificates.issuerKind', o.issuerKind, 'is set without issuerName',
        'set issuerName too, or drop issuerKind to use the self-signed Issuer created here']);
    }
    if (this.mode === Mode.CERT_MANAGER) {
      for (const [field, value, fix] of [
        ['certificates.certificateName', o.certificateName, 'use a DNS-1123 subdomain such as "kruise-webhook-cert"'],
        ['certificates.issuerName', o.issuerName, 'use the name of a cert-manager Issuer or ClusterIssuer'],
      ] as const) {
        if (value === undefined) continue;
        for (const problem of dns1123SubdomainProblems(value)) out.push([field, value, problem, fix]);
      }
    }
    for (const key of Object.keys(this.externalOptions.annotations ?? {})) {
      for (const problem of qualifiedNameProblems(key)) {
        out.push([`certificates.annotations.${key}`, key, problem, 'use a qualified name such as "cert-manager.io/inject-ca-from"']);
      }
      if (key === 'template') {
        out.push([`certificates.annotations.${key}`, key, 'is the annotation kruise-manager reads the webhook list from',
          'use the annotation key your CA injection tool reads']);
      }
    }
    return out;
  }
}
