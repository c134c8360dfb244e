/**
 * How `cdk8s-kruise check` prints its report: text for people (one line per
 * problem, then a summary), JSON for tools, JUnit XML for CI test reports
 * (one test case per judged document, grouped by file).
 */
import type { CheckReport, CheckedDocument } from './check';

/** The output formats. */
export const CHECK_FORMATS = ['text', 'json', 'junit'] as const;
export type CheckFormat = typeof CHECK_FORMATS[number];

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The summary line. */
export function summary(r: CheckReport): string {
  const others = r.documents.length - r.judged;
  const documents = r.refused === 0 ? undefined : plural(r.refused, 'document');
  const verdict = r.targetErrors.length > 0 ? `the target${documents ? ` and ${documents}` : ''} refused` : documents ? `${documents} refused` : 'all admitted';
  const on = r.target.kubernetes ? ` on Kubernetes ${r.target.kubernetes}` : '';
  return `checked ${plural(r.documents.length, 'document')} in ${plural(r.files.length, 'file')} against OpenKruise ${r.target.openKruise} and Kruise Rollouts ${r.target.rollouts}${on}: `
    + `${plural(r.judged, 'OpenKruise object')} judged, ${plural(others, 'other document')} passed by; ${verdict}`;
}

function text(r: CheckReport): string {
  const lines: string[] = [...r.targetErrors];
  for (const d of r.documents) for (const e of d.errors) lines.push(e);
  for (const w of r.targetWarnings) lines.push(`warning: ${w}`);
  for (const d of r.documents) for (const w of d.warnings) lines.push(`warning: ${w}`);
  lines.push(summary(r));
  return `${lines.join('\n')}\n`;
}

function json(r: CheckReport): string {
  return `${JSON.stringify({
    target: {
      openKruise: r.target.openKruise,
      rollouts: r.target.rollouts,
      ...(r.target.kubernetes ? { kubernetes: r.target.kubernetes } : {}),
      ...(r.targetErrors.length > 0 || r.targetWarnings.length > 0
        ? { admitted: r.targetErrors.length === 0, errors: r.targetErrors, warnings: r.targetWarnings } : {}),
    },
    files: r.files.length,
    documents: r.documents.length,
    judged: r.judged,
    refused: r.refused,
    results: r.documents.filter(d => d.judged || d.errors.length > 0).map(d => ({
      file: d.file,
      document: d.document,
      apiVersion: d.apiVersion,
      kind: d.kind,
      name: d.name,
      namespace: d.namespace,
      admitted: d.errors.length === 0,
      errors: d.errors,
      warnings: d.warnings,
    })),
  }, undefined, 2)}\n`;
}

/** Text as XML character data or an attribute value (control characters other than tab and newline are not allowed in XML 1.0). */
function xml(s: string): string {
  return s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function caseName(d: CheckedDocument): string {
  return `${d.kind} ${d.namespace ? `${d.namespace}/` : ''}${d.name ?? '(no name)'} (document ${d.document})`;
}

function junit(r: CheckReport): string {
  const byFile = new Map<string, CheckedDocument[]>();
  for (const d of r.documents) {
    if (!d.judged && d.errors.length === 0) continue;
    const list = byFile.get(d.file);
    if (list) list.push(d); else byFile.set(d.file, [d]);
  }
  const total = [...byFile.values()].reduce((n, l) => n + l.length, 0);
  const hasTarget = r.targetErrors.length > 0 || r.targetWarnings.length > 0;
  const targetFailed = r.targetErrors.length > 0 ? 1 : 0;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cdk8s-kruise check" tests="${total + (hasTarget ? 1 : 0)}" failures="${r.refused + targetFailed}">`];
  if (hasTarget) {
    // the target itself: the release on the cluster's Kubernetes
    const warnings = r.targetWarnings.length > 0 ? `<system-out>${xml(r.targetWarnings.map(w => `warning: ${w}`).join('\n'))}</system-out>` : '';
    const open = `    <testcase classname="target" name="${xml(`OpenKruise ${r.target.openKruise} and Kruise Rollouts ${r.target.rollouts} on Kubernetes ${r.target.kubernetes}`)}"`;
    out.push(`  <testsuite name="target" tests="1" failures="${targetFailed}">`);
    out.push(targetFailed
      ? `${open}><failure message="${xml(r.targetErrors[0])}" type="refused">${xml(r.targetErrors.join('\n'))}</failure>${warnings}</testcase>`
      : `${open}>${warnings}</testcase>`);
    out.push('  </testsuite>');
  }
  for (const [file, docs] of byFile) {
    const failures = docs.filter(d => d.errors.length > 0).length;
    out.push(`  <testsuite name="${xml(file)}" tests="${docs.length}" failures="${failures}">`);
    for (const d of docs) {
      const open = `    <testcase classname="${xml(file)}" name="${xml(caseName(d))}"`;
      const warnings = d.warnings.length > 0 ? `<system-out>${xml(d.warnings.map(w => `warning: ${w}`).join('\n'))}</system-out>` : '';
      if (d.errors.length === 0) {
        out.push(warnings ? `${open}>${warnings}</testcase>` : `${open}/>`);
      } else {
        out.push(`${open}><failure message="${xml(d.errors[0])}" type="refused">${xml(d.errors.join('\n'))}</failure>${warnings}</testcase>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** The report in `format`. */
export function renderCheck(r: CheckReport, format: CheckFormat): string {
  return format === 'json' ? json(r) : format === 'junit' ? junit(r) : text(r);
}
