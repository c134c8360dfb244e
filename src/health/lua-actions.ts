/**
 * A kind's actions (`actions.ts`) as Argo CD's resource actions: the value of
 * `resource.customizations.actions.<group>_<Kind>` in `argocd-cm`, a YAML
 * document with the `discovery.lua` script and one `action.lua` per action.
 *
 * Argo CD runs both without Lua's standard libraries (only the base, table
 * and package libraries, and its own safe `os` as a module, `require("os")`,
 * which has `os.time` and `os.date`): the scripts use nothing else. The live object is the global
 * `obj`, the parameters the user gave are the global `actionParams` (text).
 * Discovery returns a table of the actions that apply, by name; an action
 * returns the changed object (Argo CD sends the difference as a JSON merge
 * patch, the status part to the status subresource) or a list of objects to
 * create (`{ operation = "create", resource = ... }`, Argo CD 2.8 and later).
 * An action run where it does not apply fails with its `whyNot` message.
 */
import { stringify } from 'yaml';
import { ActionDef, ActionValue, Effect, KindActions } from './action';
import { RECREATE_DEADLINE_SECONDS, RECREATE_TTL_SECONDS } from './actions';
import { helperSource, LuaWriter, luaString } from './lua';
import { Expr, Message } from './rule';

/** Helpers only actions use. */
const ACTION_HELPERS: Record<string, string> = {
  put: [
    'local function put(value, ...)',
    '  local keys = {...}',
    '  local t = obj',
    '  for i = 1, #keys - 1 do',
    '    if type(t[keys[i]]) ~= "table" then t[keys[i]] = {} end',
    '    t = t[keys[i]]',
    '  end',
    '  t[keys[#keys]] = value',
    'end',
  ].join('\n'),
  given: [
    'local function given(name)',
    '  local v = actionParams[name]',
    '  if v == nil or v == "" then return nil end',
    '  return v',
    'end',
  ].join('\n'),
  count: [
    'local function count(name, default, whoami)',
    '  local v = given(name)',
    '  if v == nil then',
    '    if default ~= nil then return default end',
    '    error(whoami .. ": give " .. name .. ", a whole number of 0 or more", 0)',
    '  end',
    '  local n = tonumber(v)',
    '  if n == nil or n < 0 or n % 1 ~= 0 then',
    '    error(whoami .. ": " .. name .. " \'" .. tostring(v) .. "\' is not a whole number of 0 or more", 0)',
    '  end',
    '  return n',
    'end',
  ].join('\n'),
  step: [
    'local function step(name, default, current, whoami)',
    '  local v = given(name)',
    '  if v == nil then v = default end',
    '  local n = tonumber(v)',
    '  if n == nil or n < 1 or n >= current or n % 1 ~= 0 then',
    '    error(whoami .. ": " .. name .. " \'" .. tostring(v) .. "\' is not an earlier step; give a step from 1 to " .. tostring(current - 1), 0)',
    '  end',
    '  return n',
    'end',
  ].join('\n'),
  // an empty Lua table is written as a JSON list, so an empty map is left out
  // (absent and empty are the same for a pod template) but emptyDir, whose
  // presence is the volume source, which becomes emptyDir: { medium: "" }
  copy: [
    'local function copy(v, key)',
    '  if type(v) ~= "table" then return v end',
    '  local out, n = {}, 0',
    '  if v[1] ~= nil then',
    '    for _, x in ipairs(v) do',
    '      local c = copy(x, nil)',
    '      if c ~= nil then n = n + 1; out[n] = c end',
    '    end',
    '  else',
    '    for k, x in pairs(v) do',
    '      local c = copy(x, k)',
    '      if c ~= nil then n = n + 1; out[k] = c end',
    '    end',
    '  end',
    '  if n > 0 then return out end',
    '  if key == "emptyDir" then return { medium = "" } end',
    '  return nil',
    'end',
  ].join('\n'),
};
const ACTION_NEEDS: Record<string, string[]> = { count: ['given'], step: ['given'] };

class ActionWriter {
  readonly w = new LuaWriter();
  readonly used = new Set<string>();
  readonly body: string[] = [];

  constructor(readonly kind: KindActions) {}

  use(helper: string): void {
    if (this.used.has(helper)) return;
    for (const dep of ACTION_NEEDS[helper] ?? []) this.use(dep);
    this.used.add(helper);
  }

  lets(): void {
    for (const [name, e] of this.kind.lets ?? []) {
      const value = this.w.expr(e);
      this.body.push(`local ${this.w.bind(name)} = ${value}`);
    }
  }

  expr(e: Expr): string {
    return this.w.expr(e);
  }

  message(m: Message): string {
    return this.w.message(m);
  }

  /** The script: a header, the helpers used, the body. */
  script(header: string): string {
    const own = Object.keys(ACTION_HELPERS).filter(h => this.used.has(h)).map(h => ACTION_HELPERS[h]);
    return [header, ...helperSource(this.w), ...own, ...this.body, ''].join('\n');
  }
}

/** `Title namespace/name` in Lua, for the messages of parameter checks. */
function whoami(a: ActionWriter): string {
  return a.message([`${a.kind.title} `, { op: 'get', path: ['metadata', 'namespace'], dflt: '' }, '/', { op: 'get', path: ['metadata', 'name'], dflt: '' }]);
}

function paramVar(name: string): string {
  return `p_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function valueOf(a: ActionWriter, v: ActionValue): string {
  if (v.op === 'param') return paramVar(v.name);
  return a.expr(v as Expr);
}

function readParams(a: ActionWriter, action: ActionDef): void {
  for (const p of action.params ?? []) {
    const dflt = p.dflt ? a.expr(p.dflt) : 'nil';
    switch (p.type) {
      case 'count':
        a.use('count');
        a.body.push(`local ${paramVar(p.name)} = count(${luaString(p.name)}, ${dflt}, ${whoami(a)})`);
        break;
      case 'step': {
        a.use('step');
        const current = a.expr({ op: 'ref', name: 'step' });
        a.body.push(`local ${paramVar(p.name)} = step(${luaString(p.name)}, ${dflt}, ${current}, ${whoami(a)})`);
        break;
      }
      case 'name':
        a.use('given');
        a.body.push(`local ${paramVar(p.name)} = given(${luaString(p.name)})`);
        break;
    }
  }
}

/** The Lua of a ContainerRecreateRequest for the pod `obj`, returned for Argo CD to create. */
function recreateContainers(a: ActionWriter): string[] {
  const who = whoami(a);
  return [
    'local restart = {}',
    'local names = ""',
    'for i, c in ipairs(obj.spec.containers) do',
    '  if i > 1 then names = names .. ", " end',
    '  names = names .. c.name',
    `  if ${paramVar('container')} == nil or ${paramVar('container')} == c.name then restart[#restart + 1] = { name = c.name } end`,
    'end',
    `if #restart == 0 then error(${who} .. ": no container named " .. ${paramVar('container')} .. " (its containers: " .. names .. ")", 0) end`,
    'local crr = {',
    '  apiVersion = "apps.kruise.io/v1alpha1",',
    '  kind = "ContainerRecreateRequest",',
    '  metadata = {',
    '    name = obj.metadata.name .. "-restart-" .. os.time(),',
    '    namespace = obj.metadata.namespace,',
    '    ownerReferences = { { apiVersion = "v1", kind = "Pod", name = obj.metadata.name, uid = obj.metadata.uid } },',
    '  },',
    '  spec = {',
    '    podName = obj.metadata.name,',
    '    containers = restart,',
    '    strategy = { failurePolicy = "Fail" },',
    `    activeDeadlineSeconds = ${RECREATE_DEADLINE_SECONDS},`,
    `    ttlSecondsAfterFinished = ${RECREATE_TTL_SECONDS},`,
    '  },',
    '}',
    'return { { operation = "create", resource = crr } }',
  ];
}

/** The Lua of the job an AdvancedCronJob's template describes, as its controller makes a scheduled one, returned for Argo CD to create. */
function runJobNow(a: ActionWriter): string[] {
  a.use('copy');
  return [
    'local t = obj.spec.template',
    'local kind, apiVersion, template',
    'if t.jobTemplate ~= nil then',
    '  kind, apiVersion, template = "Job", "batch/v1", t.jobTemplate',
    'elseif t.broadcastJobTemplate ~= nil then',
    '  kind, apiVersion, template = "BroadcastJob", obj.apiVersion, t.broadcastJobTemplate',
    'else',
    '  kind, apiVersion, template = "ImageListPullJob", obj.apiVersion, t.imageListPullJobTemplate',
    'end',
    'local meta = template.metadata or {}',
    // the controller's own name and annotation: <name>-<the scheduled time in Unix seconds>, apps.kruise.io/scheduled-at (RFC 3339)
    'local annotations = copy(meta.annotations, nil) or {}',
    'annotations["apps.kruise.io/scheduled-at"] = os.date("!%Y-%m-%dT%H:%M:%SZ")',
    'local job = {',
    '  apiVersion = apiVersion,',
    '  kind = kind,',
    '  metadata = {',
    '    name = obj.metadata.name .. "-" .. os.time(),',
    '    namespace = obj.metadata.namespace,',
    '    labels = copy(meta.labels, nil),',
    '    annotations = annotations,',
    '    ownerReferences = { { apiVersion = obj.apiVersion, kind = obj.kind, name = obj.metadata.name, uid = obj.metadata.uid, controller = true, blockOwnerDeletion = true } },',
    '  },',
    '  spec = copy(template.spec, nil),',
    '}',
    'return { { operation = "create", resource = job } }',
  ];
}

function effectLines(a: ActionWriter, e: Effect): string[] {
  switch (e.op) {
    case 'set': {
      a.use('put');
      const line = `put(${valueOf(a, e.value)}, ${e.path.map(luaString).join(', ')})`;
      return e.onlyIf ? [`if ${a.expr(e.onlyIf)} then ${line} end`] : [line];
    }
    case 'recreateContainers': return recreateContainers(a);
    case 'runJobNow': return runJobNow(a);
  }
}

/** The `action.lua` of one action. */
export function actionLua(kind: KindActions, action: ActionDef): string {
  const a = new ActionWriter(kind);
  a.lets();
  a.body.push(`if not ${a.expr(action.when)} then error(${a.message(action.whyNot)}, 0) end`);
  readParams(a, action);
  const creates = action.effects.some(e => e.op !== 'set');
  if (creates && action.effects.length !== 1) {
    throw new Error(`action ${kind.kind} ${action.name}: an action that creates an object does only that (Argo CD applies a created object and a patch of the same action separately)`);
  }
  // Argo CD gives actions its safe os library as a module only (`require("os")`: os.time, os.date)
  if (creates) a.body.push('local os = require("os")');
  for (const e of action.effects) a.body.push(...effectLines(a, e));
  if (!creates) a.body.push('return obj');
  return a.script(`-- ${kind.group ? `${kind.group}/` : ''}${kind.kind} action ${action.name}, from cdk8s-kruise`);
}

/** The `discovery.lua` of a kind: the actions that apply to the object as it is. */
export function discoveryLua(kind: KindActions): string {
  const a = new ActionWriter(kind);
  a.lets();
  a.body.push('local actions = {}');
  for (const action of kind.actions) {
    // Argo CD v3.5 reads a parameter's name only (v1alpha1.ResourceActionParam); a default is the action's to apply
    const params = (action.params ?? []).map(p => `{ ["name"] = ${luaString(p.name)} }`);
    const fields = [
      `["displayName"] = ${luaString(action.displayName)}`,
      `["iconClass"] = ${luaString(action.iconClass)}`,
      ...(params.length ? [`["params"] = { ${params.join(', ')} }`] : []),
    ];
    a.body.push(`if ${a.expr(action.when)} then actions[${luaString(action.name)}] = { ${fields.join(', ')} } end`);
  }
  a.body.push('return actions');
  return a.script(`-- ${kind.group ? `${kind.group}/` : ''}${kind.kind} actions, from cdk8s-kruise (discovery: only the actions that apply now)`);
}

/** The value of `resource.customizations.actions.<group>_<Kind>`: the discovery script and every action's script. */
export function actionsConfigValue(kind: KindActions): string {
  return stringify({
    'discovery.lua': discoveryLua(kind),
    'definitions': kind.actions.map(action => ({ 'name': action.name, 'action.lua': actionLua(kind, action) })),
  }, { lineWidth: 0 });
}

/** The `argocd-cm` key of a kind's actions (`Pod` for the core group). */
export function actionsConfigKey(kind: KindActions): string {
  return `resource.customizations.actions.${kind.group ? `${kind.group}_` : ''}${kind.kind}`;
}
