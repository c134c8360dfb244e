/**
 * The OpenKruise CustomResourceDefinitions of a release, rendered from the
 * API model of its line (18 in 1.9; 17 in 1.7 and 1.8, whose charts install
 * no EphemeralJob).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { NAMES } from './rbac';
import { sortKeys } from '../api/crd';
import type { Release } from '../releases/registry';
import { findSchemaDir } from '../validation/schemas';

/**
 * The CRDs of one product as the API model renders them for a release, in
 * the model's order: crds.json of the release's line (schemas/ for the
 * default lines, schemas/<product>-<line>/ for the others), written from the
 * model by `npx projen gen` (its staleness test keeps it equal), so an
 * install parses JSON instead of loading and rendering the model. The kinds
 * the line's chart leaves out are left out. A fresh copy on every call.
 *
 * @param release the release (default: the default line's)
 */
export function modelCrds(product: 'kruise' | 'rollouts', release?: Release): Array<Record<string, any>> {
  const folder = release?.line.folder;
  const file = folder === undefined ? path.join(findSchemaDir(), 'crds.json') : path.join(findSchemaDir(), folder, 'crds.json');
  const bundle = JSON.parse(fs.readFileSync(file, 'utf-8'));
  const leftOut = new Set(release?.line.chartLeavesOut ?? []);
  return (bundle[product] as Array<Record<string, any>>).filter(c => !leftOut.has(c.spec.names.kind));
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

/**
 * CRDs served through kruise-manager's conversion webhook (kruise config/crd
 * kustomization), once they serve two versions: statefulsets from 1.7,
 * daemonsets and sidecarsets from 1.9.
 */
export const CONVERSION_WEBHOOK_CRDS = ['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io'];

/** The CRDs a release serves through the conversion webhook, in `CONVERSION_WEBHOOK_CRDS` order. */
export function conversionCrds(crds: ReadonlyArray<Record<string, any>>): string[] {
  const twoVersions = new Set(crds.filter(c => c.spec.versions.length > 1).map(c => c.metadata.name as string));
  return CONVERSION_WEBHOOK_CRDS.filter(n => twoVersions.has(n));
}

/** Options of the CRD part. */
export interface CrdOptions {
  /** The CRDs, from `modelCrds`. */
  readonly crds: Array<Record<string, any>>;
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
  const converted = conversionCrds(o.crds);
  return o.crds.map(crd => {
    const manifest = withLabels(crd, o.labels);
    const name: string = manifest.metadata.name;
    const webhook = converted.includes(name);
    if (webhook && Object.keys(o.conversionAnnotations).length > 0) {
      manifest.metadata = sortKeys({ ...manifest.metadata, annotations: { ...o.conversionAnnotations } });
    }
    if (webhook) manifest.spec = sortKeys({ ...manifest.spec, conversion: conversion(o.namespace) });
    return crdObject(scope, manifest);
  });
}
