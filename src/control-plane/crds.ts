/**
 * The 18 OpenKruise CustomResourceDefinitions, rendered from the API model.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { NAMES } from './rbac';
import { sortKeys } from '../api/crd';
import { findSchemaDir } from '../validation/schemas';

/**
 * The CRDs of one product as the API model renders them, in the model's
 * order: schemas/crds.json, written from the model by `npx projen gen` (its
 * staleness test keeps it equal), so an install parses JSON instead of
 * loading and rendering the model. A fresh copy on every call.
 */
export function modelCrds(product: 'kruise' | 'rollouts'): Array<Record<string, any>> {
  const bundle = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), 'crds.json'), 'utf-8'));
  return bundle[product];
}

/** `crd` with `labels` on its metadata, keys sorted as the model sorts them (the labels the model's renderer would add). */
export function withLabels(crd: Record<string, any>, labels: Record<string, string>): Record<string, any> {
  if (Object.keys(labels).length > 0) crd.metadata = sortKeys({ ...crd.metadata, labels: sortKeys(labels) });
  return crd;
}

/** The construct of one CRD, with the id every install gives it. */
export function crdObject(scope: Construct, manifest: Record<string, any>): ApiObject {
  const { apiVersion, kind, metadata, ...rest } = manifest;
  return new ApiObject(scope, `Crd-${manifest.spec.names.plural}.${manifest.spec.group}`, { apiVersion, kind, metadata, ...rest });
}

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
  return modelCrds('kruise').map(crd => {
    const manifest = withLabels(crd, o.labels);
    const name: string = manifest.metadata.name;
    const webhook = CONVERSION_WEBHOOK_CRDS.includes(name);
    if (webhook && Object.keys(o.conversionAnnotations).length > 0) {
      manifest.metadata = sortKeys({ ...manifest.metadata, annotations: { ...o.conversionAnnotations } });
    }
    if (webhook) manifest.spec = sortKeys({ ...manifest.spec, conversion: conversion(o.namespace) });
    return crdObject(scope, manifest);
  });
}
