import * as fs from 'fs';
import { ApiObject, JsonPatch, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { _l1Class } from './_kruise-l1';
import { SERVER_SET_METADATA, _setOrigin, isKruiseObject } from './admission/engine';
import { KruiseValidation } from './validation/register';
import { _constructLine, fieldError } from './validation/report';

/** Props of `KruiseInclude`. */
export interface KruiseIncludeProps {
  /**
   * A local file path or a URL of a YAML (or JSON) manifest; a file may hold
   * several documents.
   */
  readonly url: string;

  /**
   * Keep what a cluster sets on an object, as `kubectl get -o yaml` prints
   * it: `status` and the metadata `uid`, `resourceVersion`, `generation`,
   * `creationTimestamp` and `managedFields`. By default they are left out of
   * the output, so a manifest read back from a cluster can be applied again
   * (the API server refuses to create an object with a resourceVersion).
   * Admission ignores them either way: the API server drops `status` on
   * create.
   *
   * @default false
   */
  readonly keepServerFields?: boolean;
}

/**
 * Existing YAML brought into the app, like cdk8s `Include`, with every
 * OpenKruise object in it judged at synth as the cluster would judge it.
 *
 * Each OpenKruise object becomes an instance of its `kruise` L1 class (so
 * `ApiObject.of`, JSON patches and the admission layer treat it like one
 * written in code); its fields are kept exactly as in the file. Other
 * objects become plain `ApiObject`s. An object that would be refused fails
 * synth under its construct path, with the file and the document number.
 *
 * A manifest read back from a cluster (`kubectl get -o yaml`) can be
 * included as it is: its `status` and the metadata the cluster set are left
 * out of the output (`keepServerFields` keeps them).
 */
export class KruiseInclude extends Construct {
  constructor(scope: Construct, id: string, props: KruiseIncludeProps) {
    super(scope, id);
    KruiseValidation.enable(this);
    const remote = /^https?:\/\//.test(props.url);
    // every refusal names the file, in the shape of every message: `[path] KruiseInclude url: "file" problem; fix`
    const refuse = (problem: string, fix: string) => new Error(`[${this.node.path}] ${_constructLine('KruiseInclude', fieldError('url', props.url, problem, fix))}`);
    if (!remote && !fs.existsSync(props.url)) {
      throw refuse('cannot be read: there is no such file', 'give the path of a YAML or JSON manifest (or an http(s) URL)');
    }
    let docs: any[];
    try {
      docs = Yaml.load(props.url);
    } catch (e: any) {
      throw refuse(`cannot be read (${String(e?.message ?? e).trim()})`, 'give the path of a YAML or JSON manifest (or an http(s) URL)');
    }
    const keep = props.keepServerFields === true;
    let unnamed = 0;
    docs.forEach((obj, i) => {
      if (obj === null || obj === undefined) return;
      const document = `document ${i + 1}`;
      if (typeof obj !== 'object' || Array.isArray(obj)) {
        throw refuse(`holds ${document}, which is not a Kubernetes object but ${JSON.stringify(obj)}`, 'make every document a mapping with apiVersion and kind');
      }
      if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
        throw refuse(`holds ${document}, whose apiVersion is ${JSON.stringify(obj.apiVersion) ?? '(unset)'} and kind ${JSON.stringify(obj.kind) ?? '(unset)'}`, 'give every object both as strings');
      }
      // a name or namespace that is not a string is the schema's to refuse (with the field); the construct id uses none of it
      const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
      const name = text(obj.metadata?.name) ?? `object${unnamed++}`;
      const objId = [name, obj.kind.toLowerCase(), text(obj.metadata?.namespace)].filter(x => x).join('-');
      if (this.node.tryFindChild(objId)) {
        throw refuse(`holds ${document}, a second ${obj.kind} "${name}"${obj.metadata?.namespace ? ` in namespace ${obj.metadata.namespace}` : ''}`, 'include each object once');
      }
      if (!keep) obj = withoutServerFields(obj);
      const L1 = _l1Class(obj.apiVersion, obj.kind);
      let created: ApiObject;
      if (L1) {
        created = new L1(this, objId, { metadata: obj.metadata });
        for (const [k, v] of Object.entries(obj)) {
          if (!['apiVersion', 'kind', 'metadata'].includes(k)) created.addJsonPatch(JsonPatch.add(`/${k}`, v));
        }
      } else {
        created = new ApiObject(this, objId, obj);
      }
      if (isKruiseObject(created)) _setOrigin(created, { source: props.url, document: i + 1, keepsServerFields: keep });
    });
  }

  /** The included objects. */
  public get apiObjects(): ApiObject[] {
    return this.node.children.filter((o): o is ApiObject => o instanceof ApiObject);
  }
}

/** `obj` without `status` and the metadata a cluster sets. */
function withoutServerFields(obj: Record<string, any>): Record<string, any> {
  const { status: _status, ...rest } = obj;
  if (rest.metadata === null || typeof rest.metadata !== 'object') return rest;
  const metadata = { ...rest.metadata };
  for (const f of SERVER_SET_METADATA) delete metadata[f];
  return { ...rest, metadata };
}
