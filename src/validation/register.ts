import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { _markCheckRounds, _renderForChecks } from './render';
import { KRUISE_GROUPS, formatIssue, validateManifest } from './schemas';

/** Objects that carry their own schema validation (L1 and L2 objects of this library). */
const selfValidated = new WeakSet<IConstruct>();
/** Trees (by root) whose raw Kruise ApiObjects are validated. */
const enabledRoots = new WeakSet<IConstruct>();

function isKruise(obj: ApiObject): boolean {
  return KRUISE_GROUPS.includes(obj.apiGroup);
}

function describeObject(manifest: Record<string, any>): string {
  const name = manifest.metadata?.name;
  return `${manifest.kind} ${name ? `"${name}" ` : ''}(${manifest.apiVersion})`;
}

/** Validate one ApiObject; every problem as one line. */
function validateApiObject(obj: ApiObject, withPath: boolean): string[] {
  const manifest = _renderForChecks(obj);
  const issues = validateManifest(manifest);
  const where = withPath ? `at '${obj.node.path}': ` : '';
  return issues.map(i => `${where}${describeObject(manifest)} ${formatIssue(i)}`);
}

/**
 * Synth-time schema validation of OpenKruise objects.
 *
 * Every `apps.kruise.io` / `policy.kruise.io` object created through this
 * library (the L2 constructs and the `kruise` L1 classes) is validated against
 * the schema of its apiVersion/kind when the app synthesizes, and so is every
 * raw `ApiObject` of those groups in an app where validation is enabled. An
 * invalid object fails synth with one line per problem: construct path,
 * object, field path, bad value and what is expected.
 */
export class KruiseValidation {
  /**
   * Enable validation for `scope`.
   *
   * For an `ApiObject` of a Kruise group, validates that object (its errors
   * carry its construct path). For any construct, also validates every raw
   * Kruise `ApiObject` in the whole app at synth. Calling it more than once is
   * harmless; the library calls it for its own objects, so an app needs to call
   * it only when it creates Kruise objects as plain `ApiObject`s and nothing
   * else of this library.
   *
   * @param scope any construct of the app
   */
  public static enable(scope: IConstruct): void {
    _markCheckRounds(scope);
    if (scope instanceof ApiObject && !selfValidated.has(scope)) {
      selfValidated.add(scope);
      scope.node.addValidation({ validate: () => (isKruise(scope) ? validateApiObject(scope, false) : []) });
    }
    const root = scope.node.root;
    _markCheckRounds(root);
    if (!enabledRoots.has(root)) {
      enabledRoots.add(root);
      root.node.addValidation({
        validate: () => root.node.findAll()
          .filter((c): c is ApiObject => c instanceof ApiObject && !selfValidated.has(c) && isKruise(c))
          .flatMap(c => validateApiObject(c, true)),
      });
    }
  }

  private constructor() {}
}
