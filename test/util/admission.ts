/**
 * Runs an admission case through every way a user can write an OpenKruise
 * object, and says what synth answered on each path.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Include, JsonPatch, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { takeWarnings } from './every-message-shaped';
import * as kruise from '../../imports/kruise';
import * as rollouts from '../../imports/rollouts';
import { asCreated } from '../../src/admission/judge';
import { KruiseInclude } from '../../src/include';
import { KruiseValidation } from '../../src/validation/register';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { AdmissionCase } from '../fixtures/admission/types';

/** The file name messages give for a case's included YAML (the temporary folder it is written to left out). */
export const INCLUDED_FILE = 'objects.yaml';

/**
 * The paths every object can take (an L2, where one exists, is tested by
 * hand): the `kruise` L1, a raw `ApiObject`, cdk8s `Include` and `KruiseInclude`.
 */
export type EntryPath = 'l1' | 'raw' | 'cdk8s-include' | 'include';
export const ENTRY_PATHS: EntryPath[] = ['l1', 'raw', 'cdk8s-include', 'include'];

/** The L1 class of an apiVersion/kind. */
export function l1ClassOf(apiVersion: string, kind: string): any {
  for (const v of [...Object.values(kruise), ...Object.values(rollouts)] as any[]) {
    if (typeof v === 'function' && v.GVK?.apiVersion === apiVersion && v.GVK?.kind === kind) return v;
  }
  throw new Error(`no L1 class for ${apiVersion} ${kind}`);
}

/** Synthesize `manifest` on one path; the error text, or '' when synth accepts it. */
export function synthOn(p: EntryPath, manifest: Record<string, any>): string {
  const chart = Testing.chart();
  const copy = JSON.parse(JSON.stringify(manifest));
  let file: string | undefined;
  if (p === 'l1') {
    const L1 = l1ClassOf(copy.apiVersion, copy.kind);
    const obj = new L1(chart, 'obj', { metadata: copy.metadata });
    for (const [k, v] of Object.entries(copy)) {
      if (!['apiVersion', 'kind', 'metadata'].includes(k)) obj.addJsonPatch(JsonPatch.add(`/${k}`, v));
    }
  } else if (p === 'raw') {
    new ApiObject(chart, 'obj', copy);
    KruiseValidation.enable(chart);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-case-'));
    file = path.join(dir, INCLUDED_FILE);
    fs.writeFileSync(file, YAML.stringify(copy, { version: '1.1' })); // cdk8s reads YAML 1.1
    if (p === 'include') {
      new KruiseInclude(chart, 'obj', { url: file });
    } else {
      new Include(chart, 'obj', { url: file });
      KruiseValidation.enable(chart);
    }
  }
  const named = (text: string) => (file ? text.split(file).join(INCLUDED_FILE) : text);
  try {
    Testing.synth(chart);
    return '';
  } catch (e: any) {
    return named(String(e.message));
  } finally {
    lastWarnings = takeWarnings().map(named);
  }
}

let lastWarnings: string[] = [];

/** The warnings of the last `synthOn`, the included file named as in its errors. */
export function warningsOfLastSynth(): string[] {
  return lastWarnings;
}

/** The construct path the error of each path names. */
export function constructPathOn(p: EntryPath): string {
  return p === 'include' || p === 'cdk8s-include' ? 'test/obj/' : 'test/obj';
}

/** How every message names the object of a case on a path: `Kind "name" (apiVersion)`, with the file for included YAML. */
export function objectOn(p: EntryPath, manifest: Record<string, any>): string {
  const name = manifest.metadata?.name;
  const from = p === 'include' ? `; ${INCLUDED_FILE}, document 1` : '';
  return `${manifest.kind} ${name ? `"${name}" ` : ''}(${manifest.apiVersion}${from})`;
}

/** The error lines of a synth (`[construct path] message`). */
export function errorLines(error: string): string[] {
  return error.split('\n').slice(1).map(l => l.trim()).filter(l => l !== '');
}

/**
 * Expect the case's verdict on every path: accepted, or refused with a line
 * in the one shape of every message, `[construct path] Kind "name"
 * (apiVersion) ` and the case's exact message.
 */
export function expectCase(c: AdmissionCase): void {
  for (const p of ENTRY_PATHS) {
    const error = synthOn(p, c.manifest);
    if (c.allowed) {
      expect({ path: p, error }).toEqual({ path: p, error: '' });
      // each warning as `[construct path] object line`; the object's own construct path is all it may name
      const warned = warningsOfLastSynth().map(w => {
        const m = /^\[([^\]]*)\] (.*)$/.exec(w);
        return m && m[1].startsWith(constructPathOn(p)) ? m[2] : w;
      });
      const expected = c.quietOn?.includes(p) ? [] : (c.warns ?? []).map(w => `${objectOn(p, c.manifest)} ${w}`);
      expect({ path: p, warned }).toEqual({ path: p, warned: expected });
    } else {
      expect({ path: p, refused: error !== '' }).toEqual({ path: p, refused: true });
      const line = `${objectOn(p, c.manifest)} ${c.message!}`;
      const mine = errorLines(error).filter(l => l.startsWith(`[${constructPathOn(p)}`));
      expect({ path: p, line: mine.find(l => l.endsWith(`] ${line}`)) ?? mine }).toEqual({ path: p, line: expect.stringContaining(line) });
    }
  }
}

/**
 * The tests every kind's corpus gets: each case through every entry path,
 * each manifest against the JSON schema, and the corpus itself (a valid
 * object per served version, ids, reasons for stricter and skipped cases).
 */
export function describeCorpus(group: string, kind: string, cases: AdmissionCase[]): void {
  describe.each(cases.map(c => [c.id, c] as const))('%s', (_id, c) => {
    test('gets its verdict and exact message on the L1, raw, Include and KruiseInclude paths', () => {
      expectCase(c);
    });

    test('decodes against the JSON schema as written, or fails it with the case\'s message when that is what it tests', () => {
      // required fields are checked after the webhook defaults (the engine's order), so only the others count here
      const issues = validateManifest(asCreated(c.manifest));
      if (c.message !== undefined && issues.map(formatIssue).includes(c.message)) return;
      expect(issues.filter(i => !i.missing).map(formatIssue)).toEqual([]);
    });
  });

  test('the corpus covers every served version with a valid object, and explains every stricter or skipped case', () => {
    for (const apiVersion of servedVersions(group, kind)) {
      expect({ apiVersion, valid: cases.some(c => c.allowed && c.manifest.apiVersion === apiVersion) }).toEqual({ apiVersion, valid: true });
    }
    for (const c of cases) {
      expect(c.id.startsWith(`${kind}/`)).toBe(true);
      expect(c.manifest.kind).toBe(kind);
      if (!c.allowed) expect(c.message).toMatch(/\S/);
      if (c.stricter !== undefined) {
        expect({ id: c.id, allowed: c.allowed, reason: c.stricter.length > 10 }).toEqual({ id: c.id, allowed: false, reason: true });
      }
      if (c.clusterSkip !== undefined) expect(c.clusterSkip.length).toBeGreaterThan(10);
    }
    expect(new Set(cases.map(c => c.id)).size).toBe(cases.length);
  });
}
