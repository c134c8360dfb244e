/**
 * The shape of every message the library prints (no dependency on cdk8s, so
 * the `check` command and the fleet check load it without the construct tree).
 */

/**
 * One rule violation, as the library reports it: the field (dotted path from
 * the object root), the value found, what is wrong and how to fix it.
 * Every message names its object first, then this part, so the full line
 * reads `[chart/web] CloneSet "web" (apps.kruise.io/v1alpha1)
 * spec.updateStrategy.partition: "12.5%" is ...; use ...` (cdk8s prefixes the
 * construct path of a node validation).
 */
export function fieldError(field: string, value: unknown, problem: string, fix: string): string {
  const shown = value === undefined ? '(unset)' : JSON.stringify(value);
  return `${oneLine(field)}: ${shown} ${problem}; ${fix}`;
}

/**
 * The problem part of a refusal that is stricter than the cluster on
 * purpose, in the words every such refusal uses: what is wrong, that the
 * cluster admits it (`who`: `OpenKruise`, `the StatefulSet webhook`, ...),
 * and why it is refused all the same. The releases tier tells these from a
 * disagreement by the words `admits it, but`.
 */
export function stricterProblem(problem: string, who: string, why: string): string {
  return `${problem}: ${who} admits it, but ${why}`;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A field path on one line: a key with a newline (or another control
 * character) is written escaped, as JSON writes it (`spec.a\nb`), so every
 * message stays one line.
 */
export function oneLine(field: string): string {
  if (!CONTROL.test(field)) return field;
  return [...field].map(c => (CONTROL.test(c) ? SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
}

/**
 * A message about a construct that is not one Kubernetes object (a control
 * plane's option, an included file): the construct's class in place of
 * `Kind "name" (apiVersion)`, then `prop: value problem; fix`, e.g.
 * `KruiseControlPlane manager.replicas: -1 must be ...; use ...`.
 * @internal
 */
export function _constructLine(construct: string, line: string): string {
  return `${construct} ${line}`;
}
