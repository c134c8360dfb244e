/**
 * Small helpers shared by the control-plane parts.
 */
import { Duration, Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';

/** A memory quantity in the largest exact binary unit: 0 -> "0", 512 MiB -> "512Mi", 1 GiB -> "1Gi", 1.5 MiB -> "1536Ki". */
export function memoryQuantity(size: Size): string {
  const kib = size.toKibibytes({ rounding: SizeRoundingBehavior.NONE });
  if (kib === 0) return '0';
  if (kib % (1024 * 1024) === 0) return `${kib / (1024 * 1024)}Gi`;
  if (kib % 1024 === 0) return `${kib / 1024}Mi`;
  return `${kib}Ki`;
}

/** Render requests/limits of a container; empty sections are left out. */
export function renderResources(r: kplus.ContainerResources): k8s.ResourceRequirements {
  const limits: Record<string, k8s.Quantity> = {};
  const requests: Record<string, k8s.Quantity> = {};
  if (r.cpu?.limit) limits.cpu = k8s.Quantity.fromString(r.cpu.limit.amount);
  if (r.memory?.limit) limits.memory = k8s.Quantity.fromString(memoryQuantity(r.memory.limit));
  if (r.ephemeralStorage?.limit) limits['ephemeral-storage'] = k8s.Quantity.fromString(memoryQuantity(r.ephemeralStorage.limit));
  if (r.cpu?.request) requests.cpu = k8s.Quantity.fromString(r.cpu.request.amount);
  if (r.memory?.request) requests.memory = k8s.Quantity.fromString(memoryQuantity(r.memory.request));
  if (r.ephemeralStorage?.request) requests['ephemeral-storage'] = k8s.Quantity.fromString(memoryQuantity(r.ephemeralStorage.request));
  return {
    limits: Object.keys(limits).length > 0 ? limits : undefined,
    requests: Object.keys(requests).length > 0 ? requests : undefined,
  };
}

/** A Go duration string for a command-line flag: 0 -> "0", 90 s -> "90s", 1.5 s -> "1500ms". */
export function goDuration(d: Duration): string {
  const ms = d.toMilliseconds({ integral: false });
  if (ms === 0) return '0';
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** Copy of a string map with keys sorted (deterministic output), or undefined when empty. */
export function sortedMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}

/** What the manager and the daemon both render from: resolved install-wide settings. */
export interface ComponentRender {
  readonly namespace: string;
  readonly image: string;
  readonly imagePullPolicy: string;
  readonly imagePullSecrets: string[];
  readonly featureGates: string;
  readonly cacheMutationDetector: boolean;
}
