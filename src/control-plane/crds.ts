/**
 * The 18 OpenKruise CustomResourceDefinitions, rendered from the API model.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type * as Api from '../api';
import { NAMES } from './rbac';

/** CRDs served through kruise-manager's conversion webhook (kruise config/crd kustomization). */
export const CONVERSION_WEBHOOK_CRDS = ['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io'];

/** Options of the CRD part. */
export interface CrdOptions {
  readonly namespace: string;
  /** Labels of every CRD (delete protection). */
  readonly labels: Record<string, string>;
  /** Annotations of the CRDs that have a conversion webhook (certificate injection). */
  readonly conversionAnnotations: Record<string, string>;
}

/**
 * The conversion block of a CRD served through the webhook: the exact
 * service reference kruise-manager writes at runtime, without the caBundle
 * (kruise-manager or the CA injector owns it).
 */
function conversion(namespace: string): Record<string, unknown> {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { service: { name: NAMES.webhookService, namespace, path: '/convert', port: 443 } },
      conversionReviewVersions: ['v1', 'v1beta1'],
    },
  };
}

/** Create every CRD under `scope`, in the model's stable order. */
export function addCrds(scope: Construct, o: CrdOptions): ApiObject[] {
  // the API model loads with the first control plane, not with the library
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { KINDS, renderCrd, sortKeys } = require('../api') as typeof Api;
  return KINDS.map(kind => {
    const manifest = renderCrd(kind, { labels: o.labels });
    const name: string = manifest.metadata.name;
    const webhook = CONVERSION_WEBHOOK_CRDS.includes(name);
    if (webhook && Object.keys(o.conversionAnnotations).length > 0) {
      manifest.metadata = sortKeys({ ...manifest.metadata, annotations: { ...o.conversionAnnotations } });
    }
    if (webhook) manifest.spec = sortKeys({ ...manifest.spec, conversion: conversion(o.namespace) });
    const { apiVersion, kind: k, metadata, ...rest } = manifest;
    return new ApiObject(scope, `Crd-${kind.plural}.${kind.group}`, { apiVersion, kind: k, metadata, ...rest });
  });
}
