/**
 * A plan as text: a table for the terminal, markdown for a pull-request
 * comment, or JSON.
 */
import {
  MigrationPlan, PlanFormat, PlanReport, ReleaseChangePlan, RolloutChange, RolloutPlan, RolloutStepPlan, SidecarSetPlan, UpdateType, WorkloadPlan,
} from './types';

const num = (v: number | undefined): string => (v === undefined ? '?' : String(v));

function workloadName(w: WorkloadPlan): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}${w.subset !== undefined ? ` [subset ${w.subset}: ${w.subsetKind}]` : ''}`;
}

const rolloutName = (r: RolloutPlan): string => `Rollout ${r.namespace}/${r.name}`;

function batches(b: number[]): string {
  return b.length === 0 ? '-' : b.length > 8 ? `${b.slice(0, 8).join(',')},... (${b.length})` : b.join(',');
}

interface Row { readonly name: string; readonly type: string; readonly updated: string; readonly kept: string; readonly batches: string }

function rows(report: PlanReport): Row[] {
  return [
    ...report.workloads.map(w => ({
      name: workloadName(w),
      type: w.updateType,
      updated: num(w.podsUpdated),
      kept: num(w.podsOnOldRevision),
      batches: w.rollout?.inEffect && w.batches.length > 0 ? `${batches(w.batches)} (Rollout ${w.rollout.rollout})` : batches(w.batches),
    })),
    ...report.sidecarSets.map(s => ({ name: `SidecarSet ${s.name}`, type: s.updateType, updated: num(s.podsUpdated), kept: num(s.podsOnOldRevision), batches: batches(s.batches) })),
    ...report.rollouts.map(r => ({ name: rolloutName(r), type: r.change, updated: '-', kept: '-', batches: '-' })),
  ];
}

const CONFLICT = 'fights the release in progress: ';

function details(w: WorkloadPlan): string[] {
  const out = [w.summary];
  if (w.forcedBy) out.push(`forced by ${w.forcedBy}`);
  if (w.updatedOrdinals && w.updatedOrdinals.length > 0) out.push(`ordinals updated (in order): ${w.updatedOrdinals.join(', ')}`);
  if (w.keptOrdinals && w.keptOrdinals.length > 0) out.push(`ordinals kept on the old template: ${w.keptOrdinals.join(', ')}`);
  for (const c of w.releaseConflicts) out.push(`${CONFLICT}${c}`);
  return [...out, ...w.notes];
}

function stepLines(w: WorkloadPlan): string[] {
  if (!w.rollout?.inEffect || w.rollout.steps.length === 0) return [];
  return [...w.rollout.steps.map(s => s.summary), w.rollout.completion];
}

function rolloutDetails(r: RolloutPlan): string[] {
  return [r.summary, ...(r.livePhase ? [`status.phase in the cluster: ${r.livePhase}`] : []), ...r.releaseConflicts.map(c => `${CONFLICT}${c}`), ...r.notes];
}

function sidecarDetails(s: SidecarSetPlan): string[] {
  const out = [s.summary];
  if (s.selectedWorkloads.length > 0) out.push(`selects pods of ${s.selectedWorkloads.join(', ')} (${num(s.podsSelected)} pods)`);
  return [...out, ...s.notes];
}

function migrationLines(m: MigrationPlan): { head: string; items: string[]; commands: string[] } {
  const items = [m.summary];
  if (m.cause && !m.summary.includes(m.cause)) items.push(`cause: ${m.cause}`);
  m.steps.forEach((s, i) => items.push(`step ${i + 1}: ${s}`));
  if (m.adoptedPods.length > 0) {
    items.push(`pods adopted: ${m.adoptedPods.map(p => `${p.name}${p.uid ? ` (uid ${p.uid})` : ''}${p.claims.length > 0 ? ` with ${p.claims.join(', ')}` : ''}`).join('; ')}`);
  }
  items.push(...m.templateDifferences.map(d => `template differs (defaults included): ${d}`));
  items.push(...m.notes);
  return { head: `Migration ${m.current} -> ${m.target}`, items, commands: m.commands };
}

function gateLine(report: PlanReport): string {
  return Object.entries(report.featureGates).map(([g, v]) => `${g}=${v}`).join(', ');
}

function verdict(report: PlanReport): string {
  const n = [...report.workloads, ...report.sidecarSets].filter(x => x.updateType === UpdateType.REJECTED).length
    + report.rollouts.filter(r => r.change === RolloutChange.REJECTED).length;
  const c = report.workloads.filter(w => w.releaseConflicts.length > 0).length + report.rollouts.filter(r => r.releaseConflicts.length > 0).length;
  const m = (report.migrations ?? []).filter(x => x.refused).length;
  const all = n + m;
  const refused = all > 0 ? `${all} change${all === 1 ? '' : 's'} the cluster will refuse` : 'nothing the cluster will refuse';
  return c > 0 ? `${refused}; ${c} change${c === 1 ? '' : 's'} fight${c === 1 ? 's' : ''} a release in progress` : refused;
}

/** The sections of a release change, each with its lines (empty sections left out). */
function releaseSections(c: ReleaseChangePlan): Array<[string, string[]]> {
  const sections: Array<[string, string[]]> = [
    ['CRDs', c.crds],
    ['Feature gates', c.gates],
    ['Webhook rules', c.rules],
    ['Known failures on some clusters', c.knownFailures],
    ['Objects in the cluster it will refuse on their next update', c.refusedLive],
  ];
  return sections.filter(([, lines]) => lines.length > 0);
}

function releaseTable(report: PlanReport): string[] {
  const out: string[] = [];
  for (const c of report.releaseChanges ?? []) {
    out.push('', `Release change: ${c.fromRelease} -> ${c.toRelease}`);
    const sections = releaseSections(c);
    if (sections.length === 0) out.push('  - nothing that changes how the cluster judges or runs these objects');
    for (const [title, lines] of sections) {
      out.push(`  ${title}:`);
      for (const l of lines) out.push(`    - ${l}`);
    }
  }
  return out;
}

function releaseMarkdown(report: PlanReport): string[] {
  const out: string[] = [];
  for (const c of report.releaseChanges ?? []) {
    out.push(`**Release change: ${md(c.fromRelease)} → ${md(c.toRelease)}**`, '');
    const sections = releaseSections(c);
    if (sections.length === 0) out.push('- nothing that changes how the cluster judges or runs these objects');
    for (const [title, lines] of sections) {
      out.push(`- ${title}:`);
      for (const l of lines) out.push(`  - ${md(l)}`);
    }
    out.push('');
  }
  return out;
}

function table(report: PlanReport): string {
  const r = rows(report);
  const lines: string[] = [];
  for (const mp of report.migrations ?? []) {
    const { head, items, commands } = migrationLines(mp);
    lines.push(`${head}:`, ...items.map(i => `  - ${i}`));
    if (commands.length > 0) lines.push('  commands:', ...commands.map(c => `    ${c}`));
    lines.push('');
  }
  if (r.length === 0) {
    lines.push(`No workload, SidecarSet or Rollout changes (${report.unchanged} unchanged).`);
  } else {
    const head: Row = { name: 'OBJECT', type: 'UPDATE', updated: 'UPDATED', kept: 'OLD', batches: 'BATCHES' };
    const all = [head, ...r];
    const w = (k: keyof Row) => Math.max(...all.map(x => x[k].length));
    for (const x of all) {
      lines.push([x.name.padEnd(w('name')), x.type.padEnd(w('type')), x.updated.padStart(w('updated')), x.kept.padStart(w('kept')), x.batches].join('  ').trimEnd());
    }
    lines.push('');
    for (const wp of report.workloads) {
      lines.push(`${workloadName(wp)}:`);
      const [summary, ...rest] = details(wp);
      lines.push(`  - ${summary}`);
      for (const s of stepLines(wp)) lines.push(`      ${s}`);
      for (const d of rest) lines.push(`  - ${d}`);
    }
    for (const s of report.sidecarSets) {
      lines.push(`SidecarSet ${s.name}:`);
      for (const d of sidecarDetails(s)) lines.push(`  - ${d}`);
    }
    for (const ro of report.rollouts) {
      lines.push(`${rolloutName(ro)}:`);
      for (const d of rolloutDetails(ro)) lines.push(`  - ${d}`);
    }
  }
  if (report.otherChanges.length > 0) {
    lines.push('', 'Other objects:');
    for (const c of report.otherChanges) lines.push(`  - ${c}`);
  }
  lines.push(...releaseTable(report));
  lines.push('', `Feature gates: ${gateLine(report)}`, `Result: ${verdict(report)}.`);
  return lines.join('\n') + '\n';
}

const md = (s: string): string => s.replace(/\|/g, '\\|');

function pauseCell(s: RolloutStepPlan): string {
  if (s.manualApproval) return 'approval';
  if (s.pauseSeconds !== undefined) return s.pauseSeconds <= 0 ? 'none' : `${s.pauseSeconds} s`;
  return 'none (completes)';
}

function stepTable(w: WorkloadPlan): string[] {
  if (!w.rollout?.inEffect || w.rollout.steps.length === 0) return [];
  const out = ['| Step | Replicas | Pods on new revision | Pods on old revision | Traffic | Pause |', '|---:|---|---:|---:|---|---|'];
  for (const s of w.rollout.steps) {
    const traffic = [s.traffic, ...s.matches].filter(x => x !== undefined && x !== '').join('; ') || '-';
    out.push(`| ${s.step} | ${md(s.replicas)} | ${num(s.podsOnNewRevision)} | ${num(s.podsOnOldRevision)} | ${md(traffic)} | ${pauseCell(s)} |`);
  }
  return [...out, '', md(w.rollout.completion), ''];
}

function markdown(report: PlanReport): string {
  const lines: string[] = ['### OpenKruise update plan', ''];
  for (const mp of report.migrations ?? []) {
    const { head, items, commands } = migrationLines(mp);
    lines.push(`**${md(head)}**${mp.refused ? ' (**refused**)' : ''}`, '', ...items.map(i => `- ${md(i)}`), '');
    if (commands.length > 0) lines.push('```sh', ...commands, '```', '');
  }
  const r = rows(report);
  if (r.length === 0) {
    lines.push(`No workload, SidecarSet or Rollout changes (${report.unchanged} unchanged).`);
  } else {
    lines.push('| Object | Update | Pods updated | Pods on old template | Batches |', '|---|---|---:|---:|---|');
    for (const x of r) lines.push(`| ${md(x.name)} | ${x.type === UpdateType.REJECTED ? '**Rejected**' : x.type} | ${x.updated} | ${x.kept} | ${md(x.batches)} |`);
    lines.push('');
    const bullet = (d: string) => (d.startsWith(CONFLICT) ? `- **${CONFLICT.trim()}** ${md(d.slice(CONFLICT.length))}` : `- ${md(d)}`);
    for (const wp of report.workloads) {
      lines.push(`**${md(workloadName(wp))}**`, '');
      for (const d of details(wp)) lines.push(bullet(d));
      lines.push('');
      lines.push(...stepTable(wp));
    }
    for (const s of report.sidecarSets) {
      lines.push(`**SidecarSet ${md(s.name)}**`, '');
      for (const d of sidecarDetails(s)) lines.push(`- ${md(d)}`);
      lines.push('');
    }
    for (const ro of report.rollouts) {
      lines.push(`**${md(rolloutName(ro))}**`, '');
      for (const d of rolloutDetails(ro)) lines.push(bullet(d));
      lines.push('');
    }
  }
  if (report.otherChanges.length > 0) {
    lines.push('<details><summary>Other objects</summary>', '');
    for (const c of report.otherChanges) lines.push(`- ${md(c)}`);
    lines.push('', '</details>', '');
  }
  lines.push(...releaseMarkdown(report));
  lines.push(`Feature gates: ${gateLine(report)}`, '', `**Result:** ${verdict(report)}.`);
  return lines.join('\n') + '\n';
}

/** The report in the given format. */
export function renderPlan(report: PlanReport, format: PlanFormat): string {
  switch (format) {
    case PlanFormat.JSON: return JSON.stringify(report, null, 2) + '\n';
    case PlanFormat.MARKDOWN: return markdown(report);
    default: return table(report);
  }
}
