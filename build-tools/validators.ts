/**
 * Generates the schema validators: ajv compiles the JSON schema of each kind
 * and version (schemas/<group>_<version>_<kind>.json) at build time, and its
 * standalone code generation writes the compiled function as a CommonJS module
 * (schemas/<group>_<version>_<kind>.js) that src/validation/schemas.ts loads
 * for the kinds an app uses. No schema is compiled when an app synthesizes.
 *
 * Standalone code cannot call functions defined at build time, so the
 * Kubernetes extensions and the formats are ajv keywords that generate their
 * checks inline:
 *
 * - `format`: int32, int64 and date-time (the formats the API model uses),
 *   checked on the data type they apply to (a number for the integers, a
 *   string for date-time); any other format fails the build, as ajv's strict
 *   mode does;
 * - `x-kubernetes-list-type`: `set` items and `map` keys must not repeat (the
 *   first repeat is reported);
 * - `x-kubernetes-embedded-resource`: the object must carry apiVersion and kind;
 * - `x-kubernetes-int-or-string`, `-preserve-unknown-fields`, `-map-type` and
 *   `-list-map-keys` are markers with no effect on one object's validity.
 *
 * Errors carry ajv's keyword, instance path and params, so the engine can run
 * a validator on an object and sort its errors by keyword.
 */
import Ajv, { _, str, Code, CodeKeywordDefinition, KeywordCxt, Name } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';

const INT32 = { min: -2147483648, max: 2147483647 };

/** The inline check of each format, and the data type it applies to. */
const FORMATS: Record<string, { type: 'number' | 'string'; valid: (data: Name, cxt: KeywordCxt) => Code }> = {
  'int32': { type: 'number', valid: d => _`Number.isInteger(${d}) && ${d} >= ${INT32.min} && ${d} <= ${INT32.max}` },
  'int64': { type: 'number', valid: d => _`Number.isSafeInteger(${d})` },
  'date-time': {
    type: 'string',
    valid: (d, cxt) => _`!Number.isNaN(Date.parse(${d})) && ${pattern(cxt, '^\\d{4}-\\d{2}-\\d{2}T')}.test(${d})`,
  },
};

/** A regular expression of the generated module (one per pattern, shared by every use). */
function pattern(cxt: KeywordCxt, source: string): Name {
  const rx = new RegExp(source);
  return cxt.gen.scopeValue('pattern', { key: rx.toString(), ref: rx, code: _`new RegExp(${source})` });
}

const format: CodeKeywordDefinition = {
  keyword: 'format',
  schemaType: 'string',
  error: {
    message: ({ schemaCode }) => str`must match format "${schemaCode}"`,
    params: ({ schemaCode }) => _`{format: ${schemaCode}}`,
  },
  code(cxt) {
    if (!cxt.it.opts.validateFormats) return; // the meta-schema, which ajv compiles without formats
    const f = FORMATS[cxt.schema as string];
    if (!f) throw new Error(`validators: unknown format "${cxt.schema}" at ${cxt.it.errSchemaPath}; add its check to build-tools/validators.ts`);
    cxt.fail(_`typeof ${cxt.data} == ${f.type} && !(${f.valid(cxt.data, cxt)})`);
  },
};

const listType: CodeKeywordDefinition = {
  keyword: 'x-kubernetes-list-type',
  type: 'array',
  schemaType: 'string',
  error: {
    message: ({ schema, params }) => (schema === 'set' ? str`repeats an item: ${params.key}` : str`repeats a key: ${params.key}`),
    params: ({ params }) => _`{key: ${params.key}}`,
  },
  code(cxt) {
    const { gen, data, schema, parentSchema } = cxt;
    if (schema !== 'set' && schema !== 'map') return; // atomic, granular: nothing to check on one object
    const item = gen.name('item');
    const keys: string[] = parentSchema['x-kubernetes-list-map-keys'] ?? [];
    // the identity of an item: the whole item in a set, the values of its keys in a map
    const identity = schema === 'set'
      ? _`JSON.stringify(${item})`
      : keys.length === 0 ? _`"[]"` : _`JSON.stringify([${keys.map(k => _`${item}?.[${k}]`).reduce((a, b) => _`${a}, ${b}`)}])`;
    const seen = gen.const('seen', _`new Set()`);
    const key = gen.let('key');
    const valid = gen.let('valid', true);
    cxt.setParams({ key });
    gen.forOf(item, data, () => {
      gen.assign(key, identity);
      gen.if(_`${seen}.has(${key})`, () => {
        gen.assign(valid, false);
        gen.break();
      });
      gen.code(_`${seen}.add(${key})`);
    });
    cxt.pass(valid);
  },
};

const embeddedResource: CodeKeywordDefinition = {
  keyword: 'x-kubernetes-embedded-resource',
  type: 'object',
  schemaType: 'boolean',
  error: { message: 'must be a whole Kubernetes object with apiVersion and kind' },
  code(cxt) {
    const d = cxt.data;
    if (cxt.schema !== true) return;
    cxt.pass(_`typeof ${d}.apiVersion == "string" && ${d}.apiVersion !== "" && typeof ${d}.kind == "string" && ${d}.kind !== ""`);
  },
};

function compiler(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, code: { source: true } });
  ajv.removeKeyword('format');
  for (const def of [format, listType, embeddedResource]) ajv.addKeyword(def);
  for (const keyword of ['x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-map-type', 'x-kubernetes-list-map-keys']) {
    ajv.addKeyword({ keyword });
  }
  return ajv;
}

/** The standalone validator module of one JSON schema. */
export function validatorModule(schema: Record<string, unknown>): string {
  const ajv = compiler();
  const code = standaloneCode(ajv, ajv.compile(schema));
  return `// Generated from the API model in src/api by \`npx projen gen\` (ajv standalone code); do not edit.\n${code}\n`;
}
