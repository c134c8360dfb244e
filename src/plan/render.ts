/**
 * A plan as text: a table for the terminal, markdown for a pull-request
 * comment, or JSON.
 */
import { PlanFormat, PlanReport, SidecarSetPlan, UpdateType, WorkloadPlan } from './types';

const num = (v: number | undefined): string => (v === undefined ? '?' : String(v));

function workloadName(w: WorkloadPlan): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}${w.subset !== undefined ? ` [subset ${w.subset}: ${w.subsetKind}]` : ''}`;
}

function batches(b: number[]): string {
  return b.length === 0 ? '-' : b.length > 8 ? `${b.slice(0, 8).join(',')},... (${b.length})` : b.join(',');
}

interface Row { readonly name: string; readonly type: string; readonly updated: string; readonly kept: string; readonly batches: string }

function rows(report: PlanReport): Row[] {
  return [
    ...report.workloads.map(w => ({
      name: workloadName(w), type: w.updateType, updated: num(w.podsUpdated), kept: num(w.podsOnOldRevision), batches: batches(w.batches),
    })),
    ...report.sidecarSets.map(s => ({ name: `SidecarSet ${s.name}`, type: s.updateType, updated: num(s.podsUpdated), kept: num(s.podsOnOldRevision), batches: batches(s.batches) })),
  ];
}

function details(w: WorkloadPlan): string[] {
  const out = [w.summary];
  if (w.forcedBy) out.push(`forced by ${w.forcedBy}`);
  if (w.updatedOrdinals && w.updatedOrdinals.length > 0) out.push(`ordinals updated (in order): ${w.updatedOrdinals.join(', ')}`);
  if (w.keptOrdinals && w.keptOrdinals.length > 0) out.push(`ordinals kept on the old template: ${w.keptOrdinals.join(', ')}`);
  return [...out, ...w.notes];
}

function sidecarDetails(s: SidecarSetPlan): string[] {
  const out = [s.summary];
  if (s.selectedWorkloads.length > 0) out.push(`selects pods of ${s.selectedWorkloads.join(', ')} (${num(s.podsSelected)} pods)`);
  return [...out, ...s.notes];
}

function gateLine(report: PlanReport): string {
  return Object.entries(report.featureGates).map(([g, v]) => `${g}=${v}`).join(', ');
}

function verdict(report: PlanReport): string {
  const n = [...report.workloads, ...report.sidecarSets].filter(x => x.updateType === UpdateType.REJECTED).length;
  return n > 0 ? `${n} change${n === 1 ? '' : 's'} the cluster will refuse` : 'nothing the cluster will refuse';
}

function table(report: PlanReport): string {
  const r = rows(report);
  const lines: string[] = [];
  if (r.length === 0) {
    lines.push(`No workload or SidecarSet changes (${report.unchanged} unchanged).`);
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
      for (const d of details(wp)) lines.push(`  - ${d}`);
    }
    for (const s of report.sidecarSets) {
      lines.push(`SidecarSet ${s.name}:`);
      for (const d of sidecarDetails(s)) lines.push(`  - ${d}`);
    }
  }
  if (report.otherChanges.length > 0) {
    lines.push('', 'Other objects:');
    for (const c of report.otherChanges) lines.push(`  - ${c}`);
  }
  lines.push('', `Feature gates: ${gateLine(report)}`, `Result: ${verdict(report)}.`);
  return lines.join('\n') + '\n';
}

const md = (s: string): string => s.replace(/\|/g, '\\|');

function markdown(report: PlanReport): string {
  const lines: string[] = ['### OpenKruise update plan', ''];
  const r = rows(report);
  if (r.length === 0) {
    lines.push(`No workload or SidecarSet changes (${report.unchanged} unchanged).`);
  } else {
    lines.push('| Object | Update | Pods updated | Pods on old template | Batches |', '|---|---|---:|---:|---|');
    for (const x of r) lines.push(`| ${md(x.name)} | ${x.type === UpdateType.REJECTED ? '**Rejected**' : x.type} | ${x.updated} | ${x.kept} | ${x.batches} |`);
    lines.push('');
    for (const wp of report.workloads) {
      lines.push(`**${md(workloadName(wp))}**`, '');
      for (const d of details(wp)) lines.push(`- ${md(d)}`);
      lines.push('');
    }
    for (const s of report.sidecarSets) {
      lines.push(`**SidecarSet ${md(s.name)}**`, '');
      for (const d of sidecarDetails(s)) lines.push(`- ${md(d)}`);
      lines.push('');
    }
  }
  if (report.otherChanges.length > 0) {
    lines.push('<details><summary>Other objects</summary>', '');
    for (const c of report.otherChanges) lines.push(`- ${md(c)}`);
    lines.push('', '</details>', '');
  }
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
