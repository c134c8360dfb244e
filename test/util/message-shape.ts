/**
 * The one shape of every message the library prints at synth, errors and
 * warnings alike:
 *
 *     [construct path] Kind "name" (apiVersion) field: value problem; fix
 *
 * with `; file, document N` after the apiVersion for an object of included
 * YAML, no name for an object without one, and, for a construct that is not
 * one Kubernetes object (a control plane's option, an included file), the
 * construct's class in place of `Kind "name" (apiVersion)`:
 *
 *     [construct path] KruiseControlPlane prop: value problem; fix
 *
 * The value is what `fieldError` writes: `(unset)` or the value as JSON.
 */

/** The constructs whose messages are about the construct, not one Kubernetes object. */
export const CONSTRUCT_HEADS = ['KruiseControlPlane', 'KruiseRolloutControlPlane', 'KruiseInclude', 'KruiseContext'];

const PATH = String.raw`\[[^\]]*\]`;
const OBJECT = String.raw`[A-Z][A-Za-z0-9]* (?:"[^"]*" )?\((?:[a-z0-9.-]+\/)?v[a-z0-9]+(?:; [^()]+, document \d+)?\)`;
const HEAD = `(?:${OBJECT}|${CONSTRUCT_HEADS.join('|')})`;
const VALUE = String.raw`(?:\(unset\)|"(?:[^"\\]|\\.)*"|-?\d[\d.e+-]*|true|false|null|\[.*?\]|\{.*?\})`;

/** A whole line as synth prints it (errors) or `Warnings.of` lists it. */
export const MESSAGE_SHAPE = new RegExp(`^${PATH} ${HEAD} \\S.*?: ${VALUE} \\S.*?; \\S.*$`);

/** The lines of `lines` that are not in the shape. */
export function unshaped(lines: readonly string[]): string[] {
  return lines.filter(l => !MESSAGE_SHAPE.test(l));
}

/** The error lines of a failed synth (`Validation failed with the following errors:` and one line per problem). */
export function synthErrorLines(message: string): string[] {
  return message.split('\n').slice(1).map(l => l.trim()).filter(l => l !== '');
}

/** The error lines of an app's synth (none when it synthesizes); another failure is thrown as it is. */
export function appSynthErrors(app: { synthYaml(): string }): string[] {
  try {
    app.synthYaml();
    return [];
  } catch (e: any) {
    const msg = String(e.message);
    if (!msg.startsWith('Validation failed with the following errors:')) throw e;
    return synthErrorLines(msg);
  }
}
