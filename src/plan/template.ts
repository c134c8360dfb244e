/**
 * What a pod-template change does to running pods, by the rules of the
 * OpenKruise in-place update engine (webhook-rules §20): the template diff is
 * classified operation by operation; one operation that cannot be applied in
 * place makes the whole change a recreate.
 */
import { compact, diff, DiffOp, fieldPath } from './diff';
import { PlanGates } from './gates';
import { ImageChange } from './types';
import { defaultPodTemplate, parseQuantity } from '../validation/pod-template';

type Json = any;

const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/**
 * The template as the API server returns it: the Go encoding omits a plain
 * (non-pointer) `false`, `0` or `""` of an `omitempty` field, so a manifest
 * that writes `hostNetwork: false` stores nothing there.
 */
export function goEncoded(t: Json): Json {
  const c = clone(t ?? {});
  const drop = (o: Json, keys: string[], zero: unknown) => {
    if (!o || typeof o !== 'object') return;
    for (const k of keys) if (o[k] === zero) delete o[k];
  };
  const s = c.spec ?? {};
  drop(s, ['hostNetwork', 'hostPID', 'hostIPC'], false);
  for (const k of [...(s.containers ?? []), ...(s.initContainers ?? [])]) {
    drop(k, ['stdin', 'stdinOnce', 'tty'], false);
    for (const m of k?.volumeMounts ?? []) drop(m, ['readOnly'], false);
    for (const p of k?.ports ?? []) drop(p, ['hostPort'], 0);
    for (const e of k?.env ?? []) drop(e, ['value'], '');
    for (const probe of [k?.livenessProbe, k?.readinessProbe, k?.startupProbe]) drop(probe, ['initialDelaySeconds'], 0);
  }
  return c;
}

/**
 * The template as the controller stores it in a revision: the creation
 * timestamp the API server writes as null dropped, unless the kind
 * persists none the webhook's template defaults applied (TEMPLATE-DEFAULTS),
 * and the zero values the Go encoding omits left out (a live object and a
 * manifest that writes `hostNetwork: false` store the same revision).
 */
export function storedTemplate(template: Json, applyDefaults: boolean): Json {
  const t = clone(template ?? {});
  if (t.metadata) delete t.metadata.creationTimestamp;
  return goEncoded(applyDefaults ? defaultPodTemplate(t) : t);
}

/** What the change of a pod template does, operation by operation. */
export interface TemplateAnalysis {
  /** Every operation from the old to the new template (paths relative to the template). */
  readonly ops: DiffOp[];
  readonly images: ImageChange[];
  readonly metadataChanged: boolean;
  readonly envRestarts: string[];
  readonly resized: string[];
  /** Containers whose env reads a changed label/annotation but are not restarted, and why. */
  readonly envNotRefreshed: string[];
  /** The first operation that cannot be done in place: its field and a sentence. */
  readonly blocking?: { readonly field: string; readonly why: string };
}

const FIELD_REF = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** Whether a container reads `metadata.<map>['<key>']` into an env var (fieldRef, no literal value). */
function readsMeta(container: Json, map: string, key: string): boolean {
  return (container?.env ?? []).some((e: Json) => {
    if (e?.value !== undefined && e.value !== '') return false;
    const m = FIELD_REF.exec(e?.valueFrom?.fieldRef?.fieldPath ?? '');
    return !!m && m[1] === map && m[2] === key;
  });
}

type Qos = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** The QoS class a pod of this template gets (requests default to limits). */
export function qosClass(spec: Json): Qos {
  const all = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  let any = false;
  let guaranteed = all.length > 0;
  for (const c of all) {
    const limits = c?.resources?.limits ?? {};
    const requests = c?.resources?.requests ?? {};
    for (const r of ['cpu', 'memory']) {
      const l = parseQuantity(limits[r]);
      const q = parseQuantity(requests[r] ?? limits[r]);
      if ((l ?? 0) > 0 || (q ?? 0) > 0) any = true;
      if (l === undefined || l === 0 || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function describeOp(op: DiffOp, field: string, oldTpl: Json, newTpl: Json): string {
  const p = op.path;
  if (p[0] === 'spec' && (p[1] === 'containers' || p[1] === 'initContainers') && p.length === 3) {
    const list = p[1] === 'containers' ? 'container' : 'init container';
    if (op.op === 'add') return `adds ${list} "${newTpl?.spec?.[p[1]]?.[p[2]]?.name}" (${field})`;
    if (op.op === 'remove') return `removes ${list} "${oldTpl?.spec?.[p[1]]?.[p[2]]?.name}" (${field})`;
  }
  let where = '';
  if (p[0] === 'spec' && (p[1] === 'containers' || p[1] === 'initContainers') && typeof p[2] === 'number') {
    const name = (newTpl?.spec?.[p[1]]?.[p[2]] ?? oldTpl?.spec?.[p[1]]?.[p[2]])?.name;
    if (name) where = ` of ${p[1] === 'containers' ? 'container' : 'init container'} "${name}"`;
  }
  const verb = op.op === 'add' ? 'adds' : op.op === 'remove' ? 'removes' : 'changes';
  const shown = op.op === 'replace' ? `: ${JSON.stringify(op.from)} -> ${JSON.stringify(op.value)}` : '';
  return `${verb} ${field}${where}${shown}`;
}

/**
 * Classify the change from `oldTpl` to `newTpl` (both as stored, see
 * `storedTemplate`). `prefix` is where the template sits, for field names.
 */
export function analyzeTemplate(oldTpl: Json, newTpl: Json, gates: PlanGates, prefix: string): TemplateAnalysis {
  const ops = diff(oldTpl, newTpl);
  const images: ImageChange[] = [];
  const envRestarts = new Set<string>();
  const envNotRefreshed: string[] = [];
  const resized = new Set<string>();
  let metadataChanged = false;
  let blocking: { field: string; why: string } | undefined;
  let firstResizeField: string | undefined;
  const oldContainers: Json[] = oldTpl?.spec?.containers ?? [];
  const newContainers: Json[] = compact(newTpl)?.spec?.containers ?? [];
  const block = (op: DiffOp, why?: string) => {
    if (blocking) return;
    const field = fieldPath(prefix, op.path);
    blocking = { field, why: why ?? describeOp(op, field, oldTpl, newTpl) };
  };

  for (const op of ops) {
    const p = op.path;
    if (p[0] === 'metadata') {
      metadataChanged = true;
      const map = p[1];
      if ((map === 'labels' || map === 'annotations') && (op.op === 'add' || op.op === 'replace')) {
        const keys = p.length === 3 ? [String(p[2])] : p.length === 2 ? Object.keys((op.value as Json) ?? {}) : [];
        for (const key of keys) {
          for (const c of newContainers) {
            if (!readsMeta(c, map, key)) continue;
            if (p.length !== 3) {
              envNotRefreshed.push(`container "${c.name}" reads ${map} '${key}' into an env var, but the template had no ${map} before, so OpenKruise applies the new ${map} without restarting it`);
            } else if (!gates.isEnabled('InPlaceUpdateEnvFromMetadata')) {
              envNotRefreshed.push(`container "${c.name}" reads ${map} '${key}' into an env var and keeps the old value: the InPlaceUpdateEnvFromMetadata gate is off`);
            } else {
              envRestarts.add(c.name);
            }
          }
        }
      }
      continue;
    }
    if (p[0] !== 'spec') {
      block(op);
      continue;
    }
    if (op.op === 'replace' && p.length === 4 && p[1] === 'containers' && p[3] === 'image' && typeof p[2] === 'number' && p[2] < oldContainers.length) {
      images.push({ container: oldContainers[p[2]].name, oldImage: String(op.from), newImage: String(op.value) });
      continue;
    }
    const isResource = p.length === 6 && p[1] === 'containers' && typeof p[2] === 'number' && p[3] === 'resources' && (p[4] === 'limits' || p[4] === 'requests');
    if (isResource && op.op === 'replace' && gates.isEnabled('InPlaceWorkloadVerticalScaling')) {
      const field = fieldPath(prefix, p);
      if (p[5] !== 'cpu' && p[5] !== 'memory') {
        block(op, `changes ${field}: only cpu and memory are resized in place`);
      } else if (parseQuantity(op.value) === undefined) {
        block(op, `changes ${field} to ${JSON.stringify(op.value)}, which is not a quantity`);
      } else {
        resized.add(oldContainers[p[2] as number]?.name);
        firstResizeField ??= field;
      }
      continue;
    }
    if (isResource && !gates.isEnabled('InPlaceWorkloadVerticalScaling')) {
      const field = fieldPath(prefix, p);
      block(op, `${describeOp(op, field, oldTpl, newTpl)}; resources change in place only with the InPlaceWorkloadVerticalScaling gate on (off by default in 1.9)`);
      continue;
    }
    block(op);
  }

  if (!blocking && resized.size > 0) {
    const before = qosClass(oldTpl?.spec);
    const after = qosClass(newTpl?.spec);
    if (before !== after) blocking = { field: firstResizeField!, why: `changes the pod QoS class from ${before} to ${after}, which cannot be done in place` };
  }
  return {
    ops, images, metadataChanged, envRestarts: [...envRestarts], resized: [...resized], envNotRefreshed, blocking,
  };
}

/**
 * The first template.spec operation the InPlaceOnly webhook refuses: any
 * operation but a `replace` of `/containers/<n>/image` (CloneSet: the whole
 * path; Advanced StatefulSet: anywhere in the path).
 */
export function inPlaceOnlyViolation(ops: DiffOp[], match: 'exact' | 'substring'): DiffOp | undefined {
  const re = match === 'exact' ? /^\/containers\/\d+\/image$/ : /\/containers\/\d+\/image/;
  return ops.find(op => op.path[0] === 'spec' && !(op.op === 'replace' && re.test('/' + op.path.slice(1).join('/'))));
}
