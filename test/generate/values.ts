/**
 * Values the generator puts into a field, drawn from the field's schema (its
 * type, enum, format, int-or-string) and from what the field means (names,
 * images, selectors, percentages, cron schedules...): valid values, the
 * boundaries, and what a person gets wrong (an empty string, a negative, a
 * fractional percent, a number given as a string, null, an unknown field).
 */
import * as fc from 'fast-check';
import { Schema } from '../../src/api';

/** A value to set, or `DELETE` to remove the field. */
export const DELETE = Symbol('delete');
export type Value = unknown | typeof DELETE;

const long = (n: number, c = 'a') => c.repeat(n);

/** Integers at and around the boundaries of int32, int64 and the usual ranges. */
export const INTEGERS = [0, 1, -1, 2, 3, 5, 10, 100, 101, 600, 2147483647, 2147483648, -2147483648, 9007199254740991];

/** What people give where an int-or-string goes (a count or a percentage). */
export const INT_OR_STRING = [
  0, 1, 2, 5, -1, 100, 1.5, '0', '1', '0%', '1%', '50%', '100%', '101%', '150%', '12.5%', '0.5%', '-10%', '%', '50 %', ' 50%', 'abc', '',
];

/** Strings of every shape a name or a label takes, valid and not. */
export const STRINGS = [
  '', ' ', 'a', 'web', 'Web', 'web-1', '-web', 'web-', 'web.example.com', 'web_1', '1web', 'a b', 'ü', long(63), long(64), long(253), long(254),
  'true', '10', '10%',
];

export const LABEL_KEYS = ['app', 'example.com/team', 'app.kubernetes.io/name', 'bad key', '-app', 'a/b/c', `${long(64)}`, `example.com/${long(63)}`, 'kubernetes.io/x', ''];
export const LABEL_VALUES = ['web', '', 'v1.2', 'a b', '-x', long(63), long(64), 'true'];

export const IMAGES = ['nginx:1.27', 'nginx', 'nginx:latest', 'busybox:1.36', 'registry.example.com:5000/team/app:v2', 'nginx@sha256:' + 'a'.repeat(64),
  '', ' nginx:1.27', 'nginx:1.27 ', 'NGINX:1.27', 'nginx::1', 'ghcr.io/x/y:z'];

export const CRON = ['*/5 * * * *', '0 0 * * *', '@hourly', '@every 1m', 'CRON_TZ=UTC 0 * * * *', '* * * *', '61 * * * *', 'not a schedule', '', '0 0 31 2 *'];

/** A label selector: matching and not matching `labels`, with every operator. */
export function selectors(labels: Record<string, string>): unknown[] {
  const [k, v] = Object.entries(labels)[0] ?? ['app', 'web'];
  return [
    { matchLabels: { ...labels } },
    { matchLabels: { [k]: `${v}-other` } },
    { matchLabels: { [k]: v, extra: 'x' } },
    {},
    { matchLabels: {} },
    { matchExpressions: [{ key: k, operator: 'In', values: [v] }] },
    { matchExpressions: [{ key: k, operator: 'NotIn', values: [v] }] },
    { matchExpressions: [{ key: k, operator: 'Exists' }] },
    { matchExpressions: [{ key: k, operator: 'DoesNotExist' }] },
    { matchExpressions: [{ key: k, operator: 'Exists', values: [v] }] },
    { matchExpressions: [{ key: k, operator: 'In', values: [] }] },
    { matchExpressions: [{ key: k, operator: 'Equals', values: [v] }] },
    { matchLabels: { 'bad key': v } },
    { matchLabels: { [k]: 'bad value!' } },
    { matchLabels: { ...labels }, matchExpressions: [{ key: k, operator: 'In', values: [v, 'x'] }] },
  ];
}

/** Values by what a field is called (the last segment of its path). */
function byName(name: string, path: readonly (string | number)[]): unknown[] | undefined {
  const n = name.toLowerCase();
  if (n === 'image' || n === 'hotupgradeemptyimage') return IMAGES;
  if (n === 'schedule') return CRON;
  if (n === 'timezone') return ['UTC', 'Asia/Shanghai', 'Local', 'Mars/Base', ''];
  if (n.endsWith('name') || n === 'key' || n === 'orderedkey' || n === 'containername' || n === 'podname') return STRINGS;
  if (n === 'namespace') return ['default', 'kube-system', '', 'Bad_NS', long(64)];
  if (n === 'operator') return ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Equal', ''];
  if (n === 'apiversion') return ['apps/v1', 'apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1', 'v1', 'batch/v1', 'apps', ''];
  if (n === 'kind') return ['Deployment', 'StatefulSet', 'CloneSet', 'DaemonSet', 'ReplicaSet', 'Pod', 'Job', ''];
  if (n === 'fieldpath') return ['metadata.name', 'metadata.labels[\'app\']', 'spec.nodeName', 'status.podIP', 'metadata.uid', 'spec.bogus', ''];
  if (n.includes('duration') || n === 'pause' || n === 'timeout') return ['30s', '1m', '1h30m', '-1s', '0s', '5', 'forever', ''];
  if (n === 'cpu') return ['100m', '1', '0.5', '-1', '1.5.5', 'abc', '0'];
  if (n === 'memory' || n === 'storage') return ['64Mi', '1Gi', '0', '-1Gi', '1GB', '1.5Gi', 'abc'];
  if (path.includes('labels') || path.includes('matchLabels')) return LABEL_VALUES;
  return undefined;
}

/** The values for one field: from its schema, its name, and what people get wrong. */
export function valuesFor(schema: Schema | undefined, path: readonly (string | number)[]): fc.Arbitrary<Value> {
  const name = String([...path].reverse().find(p => typeof p === 'string') ?? '');
  const named = byName(name, path);
  const pool: unknown[] = [];
  const wrongType: unknown[] = [];
  if (!schema) {
    pool.push(...(named ?? STRINGS), 1, true, {}, []);
  } else if (schema['x-kubernetes-int-or-string']) {
    pool.push(...INT_OR_STRING);
    wrongType.push(true, {}, []);
  } else if (schema.enum) {
    pool.push(...schema.enum, '', String(schema.enum[0]).toLowerCase(), `${schema.enum[0]}x`);
    wrongType.push(1);
  } else {
    switch (schema.type) {
      case 'integer':
      case 'number':
        pool.push(...INTEGERS, ...(schema.type === 'number' ? [0.5, 1.25] : []));
        wrongType.push('1', '10%', true, 1.5, {});
        break;
      case 'boolean':
        pool.push(true, false);
        wrongType.push('true', 'yes', 1, 'false');
        break;
      case 'string':
        pool.push(...(named ?? STRINGS));
        if (schema.format === 'date-time') pool.push('2024-01-01T00:00:00Z', '2024-01-01', 'yesterday');
        if (schema.format === 'byte') pool.push('aGVsbG8=', 'not base64!');
        wrongType.push(1, true, {}, ['a']);
        break;
      case 'array': {
        const item = schema.items;
        pool.push([]);
        if (item?.type === 'string') pool.push(['a'], ['a', 'a'], [''], ...(named ? [named.slice(0, 2)] : []));
        else if (item?.type === 'integer') pool.push([1], [1, 1], [-1]);
        else pool.push([{}]);
        wrongType.push('a', {}, 1);
        break;
      }
      case 'object':
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
          const v = schema.additionalProperties.type === 'string' ? 'v' : schema.additionalProperties.type === 'integer' ? 1 : {};
          pool.push({}, { a: v }, { [LABEL_KEYS[1]]: v }, { 'bad key': v }, { a: 1 }, { a: null });
        } else {
          pool.push({}, { unknownField: 'x' });
        }
        wrongType.push('a', [], 1);
        break;
      default:
        pool.push(...(named ?? STRINGS), 0, true, {});
    }
  }
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...pool) },
    { weight: 3, arbitrary: fc.constantFrom(...(wrongType.length > 0 ? wrongType : [null])) },
    { weight: 2, arbitrary: fc.constant<Value>(DELETE) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}
