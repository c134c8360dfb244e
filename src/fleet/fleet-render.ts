/**
 * A fleet report as text: a table for the terminal, markdown for a
 * pull-request comment, or JSON. Lists of workloads are grouped (by the
 * containers their pods get, by what a change does to them) and cut after
 * a few names, so a report over a large fleet stays readable; the JSON has
 * everything.
 */
import {
  FleetFormat, FleetInjection, FleetPolicyChange, FleetPolicyReport, FleetProblem, FleetProblemSeverity, FleetReport, FleetWorkload,
} from './fleet-types';

/** Names listed before "and N more". */
const SHOWN = 8;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const num = (v: number | undefined) => (v === undefined ? '?' : String(v));
/** A count of pods in words; `?` when a source does not say (a workload without replicas). */
const pods = (v: number | undefined) => (v === undefined ? '? pods' : plural(v, 'pod'));

function workloadName(w: FleetWorkload): string {
  return `${w.kind} ${w.namespace}/${w.name} (${w.source}${w.pods !== undefined ? `, ${plural(w.pods, 'pod')}` : ''})`;
}

/** The first few items by name, then how many more: only the names shown are built (a group can hold a fleet). */
function list<T>(items: T[], name: (t: T) => string): string {
  const shown = items.slice(0, SHOWN).map(name).join(', ');
  return items.length <= SHOWN ? shown : `${shown} and ${items.length - SHOWN} more`;
}

const same = (s: string) => s;

export function policyTitle(p: { kind: string; name: string; namespace?: string }): string {
  return `${p.kind} ${p.namespace ? `${p.namespace}/` : ''}${p.name}`;
}

/** Groups of items with the same key, in first-seen order. */
function groups<T>(items: T[], key: (t: T) => string): Array<[string, T[]]> {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const l = m.get(k);
    if (l) l.push(i); else m.set(k, [i]);
  }
  return [...m];
}

/** A workload's injection is shared by every policy that injects into it: its layout is written once. */
const layouts = new WeakMap<FleetInjection, string>();

function layout(i: FleetInjection): string {
  let l = layouts.get(i);
  if (l === undefined) layouts.set(i, l = layoutOf(i));
  return l;
}

function layoutOf(i: FleetInjection): string {
  const init = i.initContainers.length > 0 ? `init [${i.initContainers.join(', ')}], ` : '';
  return `${init}[${i.containers.join(', ')}]${i.containerOrderFixed ? '' : ' (order of the sidecars of different SidecarSets on one side not fixed)'}`;
}

function coverage(p: FleetPolicyReport): string {
  const what = p.kind === 'SidecarSet' ? 'selects' : p.kind === 'WorkloadSpread' ? 'spreads' : p.kind === 'PodUnavailableBudget' ? 'protects' : 'records';
  if (p.workloads.length === 0) return `${what} no workload`;
  const per = p.sources.map(s => `${s.source} (${s.namespaces.join(', ')}: ${plural(s.workloads, 'workload')}, ${pods(s.pods)})`);
  return `${what} ${plural(p.workloads.length, 'workload')}, ${pods(p.pods)}, in ${plural(p.sources.length, 'source')}: ${list(per, same)}`;
}

function policyLines(p: FleetPolicyReport): string[] {
  const out = [coverage(p)];
  for (const [key, injections] of groups(p.injections, layout)) {
    out.push(`pods run ${key}: ${list(injections, i => workloadName(i.workload))}`);
  }
  return out;
}

const SEVERITY_WORD: Record<FleetProblemSeverity, string> = {
  [FleetProblemSeverity.REFUSED]: 'refused',
  [FleetProblemSeverity.REPLACES_APP_CONTAINER]: 'replaces an app container',
  [FleetProblemSeverity.WARNING]: 'warning',
  [FleetProblemSeverity.UNKNOWN]: 'not judged',
};

function changeLines(c: FleetPolicyChange): string[] {
  return [
    ...groups(c.workloads, w => w.summary).map(([summary, ws]) => `${summary}: ${list(ws, w => workloadName(w.workload))}`),
    ...c.notes,
  ];
}

function verdict(r: FleetReport): string {
  const count = (s: FleetProblemSeverity) => r.problems.filter(p => p.severity === s).length;
  const parts = [
    count(FleetProblemSeverity.REFUSED) > 0 ? `${plural(count(FleetProblemSeverity.REFUSED), 'problem')} the cluster refuses` : 'nothing the cluster refuses',
    count(FleetProblemSeverity.REPLACES_APP_CONTAINER) > 0 ? `${plural(count(FleetProblemSeverity.REPLACES_APP_CONTAINER), 'sidecar')} silently replacing an app container` : 'no app container replaced',
  ];
  if (count(FleetProblemSeverity.WARNING) > 0) parts.push(plural(count(FleetProblemSeverity.WARNING), 'warning'));
  if (count(FleetProblemSeverity.UNKNOWN) > 0) parts.push(`${plural(count(FleetProblemSeverity.UNKNOWN), 'workload')} not judged (namespace in no input)`);
  return parts.join('; ');
}

function sourcesLine(r: FleetReport): string {
  return r.sources.map(s => `${s.name} (${s.kind === 'Live' ? 'cluster' : 'app output'}: ${plural(s.workloads, 'workload')}, ${plural(s.namespaces, 'Namespace')})`).join(', ');
}

function table(r: FleetReport): string {
  const lines: string[] = [];
  const head = ['POLICY', 'WORKLOADS', 'PODS', 'SOURCES', 'PROBLEMS'];
  const rows = r.policies.map(p => [policyTitle(p), String(p.workloads.length), num(p.pods), String(p.sources.length), String(p.problems.length)]);
  const width = head.map((h, i) => Math.max(h.length, ...rows.map(x => x[i].length)));
  for (const row of [head, ...rows]) lines.push(row.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ').trimEnd());
  lines.push('');
  for (const p of r.policies) {
    lines.push(`${policyTitle(p)}:`);
    for (const l of policyLines(p)) lines.push(`  - ${l}`);
    for (const pr of p.problems) lines.push(`  - ${SEVERITY_WORD[pr.severity]}: ${pr.message}`);
  }
  if (r.compared) {
    lines.push('', r.changes.length === 0 ? 'Changes: none (the old and the new policies are the same).' : 'Changes:');
    for (const c of r.changes) {
      lines.push(`${policyTitle(c)} (${c.change.toLowerCase()}): ${c.summary}`);
      for (const l of changeLines(c)) lines.push(`  - ${l}`);
    }
  }
  lines.push('', `Sources: ${sourcesLine(r) || 'none'}`, `Result: ${verdict(r)}.`);
  return lines.join('\n') + '\n';
}

const md = (s: string): string => s.replace(/\|/g, '\\|');

function problemLine(p: FleetProblem): string {
  return `- **${SEVERITY_WORD[p.severity]}**: ${md(p.message)}`;
}

function markdown(r: FleetReport): string {
  const out: string[] = [];
  const workloads = r.sources.reduce((n, s) => n + s.workloads, 0);
  out.push(`### Fleet check: ${plural(r.policies.length, 'policy', 'policies')} against ${plural(workloads, 'workload')} in ${plural(r.sources.length, 'source')}`, '');
  out.push(`**Result:** ${verdict(r)}.`, '');
  if (r.problems.length > 0) {
    out.push('#### Problems', '');
    for (const p of r.problems.slice(0, 50)) out.push(problemLine(p));
    if (r.problems.length > 50) out.push(`- and ${r.problems.length - 50} more (see the JSON report)`);
    out.push('');
  }
  if (r.compared) {
    out.push('#### What the change does', '');
    if (r.changes.length === 0) out.push('Nothing: the old and the new policies are the same.', '');
    for (const c of r.changes) {
      out.push(`**${md(policyTitle(c))}** (${c.change.toLowerCase()}): ${md(c.summary)}`, '');
      for (const l of changeLines(c)) out.push(`- ${md(l)}`);
      out.push('');
    }
  }
  out.push('#### Policies', '', '| Policy | Workloads | Pods | Sources | Problems |', '| --- | ---: | ---: | ---: | ---: |');
  for (const p of r.policies) out.push(`| ${md(policyTitle(p))} | ${p.workloads.length} | ${num(p.pods)} | ${p.sources.length} | ${p.problems.length} |`);
  out.push('');
  for (const p of r.policies) {
    const lines = policyLines(p);
    if (lines.length === 1) {
      out.push(`- ${md(policyTitle(p))} ${md(lines[0])}`);
      continue;
    }
    out.push('', `<details><summary>${md(policyTitle(p))} ${md(lines[0])}</summary>`, '');
    for (const l of lines.slice(1)) out.push(`- ${md(l)}`);
    out.push('', '</details>', '');
  }
  out.push('');
  out.push(`Sources: ${md(sourcesLine(r) || 'none')}`);
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

/** The report as text. */
export function renderFleet(report: FleetReport, format: FleetFormat): string {
  if (format === FleetFormat.JSON) return JSON.stringify(report, null, 2) + '\n';
  return format === FleetFormat.MARKDOWN ? markdown(report) : table(report);
}
