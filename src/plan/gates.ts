/**
 * The feature gates an update plan assumes: the user's settings on top of
 * the defaults of the release the cluster runs (1.9.1's by default), with kruise-manager's start-up rules (a gate
 * that needs KruiseDaemon is off without it).
 */
import { PlanInputError } from './errors';
import { _GateSet, _GateSetting } from '../control-plane/_gates';
import { Release, defaultRelease, gateDefaults } from '../releases/registry';

/** The gates that change a plan. */
export const PLAN_GATES = [
  'InPlaceWorkloadVerticalScaling', 'InPlaceUpdateEnvFromMetadata', 'RecreatePodWhenChangeVCTInCloneSetGate',
  'TemplateNoDefaults', 'StatefulSetStartOrdinal', 'StatefulSetAutoResizePVCGate',
];

/** Whether a gate is on, as kruise-manager resolves it. */
export interface PlanGates {
  /** The plan gates and their values, for the report. */
  readonly summary: { [gate: string]: boolean };
  isEnabled(gate: string): boolean;
}

/** The gates of `settings` (gate name -> value) on `release` (default 1.9); unknown names are an input error. */
export function planGates(settings: { [gate: string]: boolean } | undefined, origin: string, release: Release = defaultRelease('openkruise')): PlanGates {
  const defaults = gateDefaults(release);
  const label = `v${release.version}`;
  const map = new Map<string, _GateSetting>();
  for (const [gate, value] of Object.entries(settings ?? {})) {
    if (defaults[gate] === undefined) {
      throw new PlanInputError(`${origin}: '${gate}' is not an OpenKruise ${label} feature gate; use one of ${Object.keys(defaults).sort().join(', ')}`);
    }
    if (typeof value !== 'boolean') {
      throw new PlanInputError(`${origin}: gate '${gate}' is ${JSON.stringify(value)}; set it to true or false`);
    }
    map.set(gate, { value, origin: `${origin}.${gate}`, explicit: true });
  }
  const set = new _GateSet(map, defaults, label);
  const summary: { [gate: string]: boolean } = {};
  // a gate the release does not have is off there
  const on = (g: string) => defaults[g] !== undefined && set.isEnabled(g);
  for (const g of PLAN_GATES) summary[g] = on(g);
  return { isEnabled: on, summary };
}

/** Parse `Name=true,Other=false` (the kruise-manager flag syntax). */
export function parseGateFlag(flag: string, origin: string): { [gate: string]: boolean } {
  const out: { [gate: string]: boolean } = {};
  for (const part of flag.split(',').map(s => s.trim()).filter(s => s !== '')) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/.exec(part);
    if (!m) throw new PlanInputError(`${origin}: '${part}' is not Name=true or Name=false; write e.g. ${origin} InPlaceWorkloadVerticalScaling=true`);
    out[m[1]] = m[2] === 'true';
  }
  return out;
}
