/**
 * A kind's health rule as the Lua health script Argo CD runs: the live object
 * is the global `obj`, and the script returns `{ status = ..., message = ... }`.
 * Argo CD runs scripts from `argocd-cm` without the standard libraries
 * (`resource.customizations.useOpenLibs.*` is off by default), so the script
 * uses only the language itself and the base and table functions (`type`,
 * `ipairs`, `pairs`, `tostring`).
 */
import { Expr, KindRule, Message } from './rule';

/** Helpers a script defines when it uses them (each a Lua local function). */
const HELPERS: Record<string, string> = {
  get: [
    'local function get(...)',
    '  local v = obj',
    '  for _, k in ipairs({...}) do',
    '    if type(v) ~= "table" then return nil end',
    '    v = v[k]',
    '  end',
    '  return v',
    'end',
  ].join('\n'),
  val: 'local function val(v, d) if v == nil then return d end return v end',
  pct: [
    'local function pct(v, d)',
    '  if type(v) ~= "string" then return d end',
    '  for i = 0, 100 do if v == i .. "%" then return i end end',
    '  return -1',
    'end',
  ].join('\n'),
  fdiv: 'local function fdiv(a, b) return (a - a % b) / b end',
  anyc: [
    'local function anyc(list, key, value, where)',
    '  if type(list) ~= "table" then return false end',
    '  for _, c in ipairs(list) do',
    '    if type(c) == "table" and (key == nil or c[key] == value) then',
    '      local ok = true',
    '      for k, v in pairs(where) do if val(c[k], "") ~= v then ok = false end end',
    '      if ok then return true end',
    '    end',
    '  end',
    '  return false',
    'end',
  ].join('\n'),
  firstc: [
    'local function firstc(list, ctype, field)',
    '  if type(list) ~= "table" then return "" end',
    '  for _, c in ipairs(list) do',
    '    if type(c) == "table" and c.type == ctype then return val(c[field], "") end',
    '  end',
    '  return ""',
    'end',
  ].join('\n'),
  count: [
    'local function count(t)',
    '  if type(t) ~= "table" then return 0 end',
    '  local n = 0',
    '  for _ in pairs(t) do n = n + 1 end',
    '  return n',
    'end',
  ].join('\n'),
  sum: [
    'local function sum(list, field, max)',
    '  if type(list) ~= "table" then return 0 end',
    '  local n, s = 0, 0',
    '  for _, it in ipairs(list) do',
    '    n = n + 1',
    '    if type(it) == "table" and type(it[field]) == "number" then s = s + it[field] end',
    '  end',
    '  if n > max then return -1 end',
    '  return s',
    'end',
  ].join('\n'),
};

/** Helpers a helper calls. */
const NEEDS: Record<string, string[]> = { anyc: ['val'], firstc: ['val'], get: [], sum: [] };

/** A Lua string literal. */
export function luaString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (code < 0x20 || code === 0x7f) out += `\\${code}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Writes rule expressions as Lua; records the helpers they use (`helperSource` prints them). */
export class LuaWriter {
  readonly used = new Set<string>();
  private readonly lets = new Set<string>();
  /** Names bound by the `with`s around the expression being written. */
  private readonly scope: string[] = [];

  use(helper: string): void {
    if (this.used.has(helper)) return;
    for (const dep of NEEDS[helper] ?? []) this.use(dep);
    this.used.add(helper);
  }

  bind(name: string): string {
    this.lets.add(name);
    return `v_${name}`;
  }

  private path(path: readonly string[]): string {
    this.use('get');
    return `get(${path.map(luaString).join(', ')})`;
  }

  private scalar(v: unknown): string {
    if (typeof v === 'string') return luaString(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number' && Number.isInteger(v)) return String(v);
    throw new Error(`health rule: the constant ${JSON.stringify(v)} is not a whole number, string or boolean`);
  }

  expr(e: Expr): string {
    switch (e.op) {
      case 'lit': return this.scalar(e.value);
      case 'get': this.use('val'); return `val(${this.path(e.path)}, ${this.scalar(e.dflt)})`;
      case 'has': return `(${this.path(e.path)} ~= nil)`;
      case 'isString': return `(type(${this.path(e.path)}) == "string")`;
      case 'percent': this.use('pct'); return `pct(${this.path(e.path)}, ${this.scalar(e.dflt)})`;
      case 'ref':
        if (this.scope.includes(e.name)) return `w_${e.name}`;
        if (!this.lets.has(e.name)) throw new Error(`health rule: '${e.name}' is used before it is bound`);
        return `v_${e.name}`;
      case 'with': {
        const value = this.expr(e.value);
        this.scope.push(e.name);
        try {
          return `(function(w_${e.name}) return ${this.expr(e.body)} end)(${value})`;
        } finally {
          this.scope.pop();
        }
      }
      case 'cmp': return `(${this.expr(e.a)} ${e.cmp === '!=' ? '~=' : e.cmp} ${this.expr(e.b)})`;
      case 'arith': return `(${this.expr(e.a)} ${e.arith} ${this.expr(e.b)})`;
      case 'div':
        this.use('fdiv');
        return e.round === 'floor' ? `fdiv(${this.expr(e.a)}, ${e.by})` : `fdiv(${this.expr(e.a)} + ${e.by - 1}, ${e.by})`;
      case 'and': case 'or':
        if (e.items.length === 0) return e.op === 'and' ? 'true' : 'false';
        return `(${e.items.map(i => this.expr(i)).join(` ${e.op} `)})`;
      case 'not': return `(not ${this.expr(e.a)})`;
      // lazy, as CEL's `?:` is: the branch not taken may read a field of another type
      case 'if': return `(function() if ${this.expr(e.cond)} then return ${this.expr(e.then)} end return ${this.expr(e.else)} end)()`;
      case 'condition': {
        this.use('anyc');
        const where = Object.entries(e.where).map(([k, v]) => `${k} = ${luaString(v)}`).join(', ');
        return `anyc(${this.path(e.list)}, "type", ${luaString(e.type)}, { ${where} })`;
      }
      case 'anyItem': this.use('anyc'); return `anyc(${this.path(e.list)}, ${luaString(e.field)}, ${luaString(e.value)}, {})`;
      case 'match': {
        this.use('anyc');
        const where = Object.entries(e.where).map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`).join(', ');
        return `anyc(${this.path(e.list)}, nil, nil, { ${where} })`;
      }
      case 'conditionField': this.use('firstc'); return `firstc(${this.path(e.list)}, ${luaString(e.type)}, ${luaString(e.field)})`;
      case 'size': this.use('count'); return `count(${this.path(e.path)})`;
      case 'sumItems': this.use('sum'); return `sum(${this.path(e.list)}, ${luaString(e.field)}, ${e.max})`;
    }
  }

  message(m: Message): string {
    const parts = m.map(p => typeof p === 'string' ? luaString(p) : `tostring(${this.expr(p)})`);
    return parts.length === 0 ? '""' : parts.join(' .. ');
  }
}

/** The Lua source of the helpers `w` used, in a fixed order. */
export function helperSource(w: LuaWriter): string[] {
  return Object.keys(HELPERS).filter(h => w.used.has(h)).map(h => HELPERS[h]);
}

/** The Lua health script of one kind. */
export function toLua(rule: KindRule): string {
  const w = new LuaWriter();
  const body: string[] = [];
  const ret = (outcome: string, message: Message) => `return { status = ${luaString(outcome)}, message = ${w.message(message)} }`;
  if (rule.statusRequired ?? true) {
    body.push(`if obj.status == nil then ${ret('Progressing', [`${rule.title}: waiting for the controller to write status`])} end`);
  }
  for (const [name, e] of rule.lets ?? []) {
    const value = w.expr(e);
    body.push(`local ${w.bind(name)} = ${value}`);
  }
  for (const c of rule.clauses) {
    body.push(`if ${w.expr(c.when)} then ${ret(c.outcome, c.message)} end`);
  }
  body.push(ret(rule.otherwise.outcome, rule.otherwise.message));
  return [
    `-- ${rule.group}/${rule.kind} health, from cdk8s-kruise (the same rule as its Flux healthCheckExprs)`,
    ...helperSource(w),
    ...body,
    '',
  ].join('\n');
}
