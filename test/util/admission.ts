/**
 * Runs an admission case through every way a user can write an OpenKruise
 * object, and says what synth answered on each path.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, JsonPatch, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import * as kruise from '../../imports/kruise';
import * as rollouts from '../../imports/rollouts';
import { KruiseInclude } from '../../src/include';
import { KruiseValidation } from '../../src/validation/register';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { AdmissionCase } from '../fixtures/admission/types';

/** The paths every object can take (an L2, where one exists, is tested by hand). */
export type EntryPath = 'l1' | 'raw' | 'include';
export const ENTRY_PATHS: EntryPath[] = ['l1', 'raw', 'include'];

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
    const file = path.join(dir, 'objects.yaml');
    fs.writeFileSync(file, YAML.stringify(copy, { version: '1.1' })); // cdk8s reads YAML 1.1
    new KruiseInclude(chart, 'obj', { url: file });
  }
  try {
    Testing.synth(chart);
    return '';
  } catch (e: any) {
    return String(e.message);
  }
}

/** The construct path the error of each path names. */
export function constructPathOn(p: EntryPath): string {
  return p === 'include' ? 'test/obj/' : 'test/obj';
}

/**
 * Expect the case's verdict on every path: accepted, or refused with the
 * case's exact message naming the object's construct path.
 */
export function expectCase(c: AdmissionCase): void {
  for (const p of ENTRY_PATHS) {
    const error = synthOn(p, c.manifest);
    if (c.allowed) {
      expect({ path: p, error }).toEqual({ path: p, error: '' });
    } else {
      expect({ path: p, refused: error !== '' }).toEqual({ path: p, refused: true });
      expect(error).toContain(`[${constructPathOn(p)}`);
      expect(error).toContain(c.message!);
    }
  }
}

/**
 * The tests every kind's corpus gets: each case through every entry path,
 * each manifest against the JSON schema, and the corpus itself (a valid
 * object per served version, ids, reasons for stricter and skipped cases).
 */
export function describeCorpus(group: string, kind: string, cases: AdmissionCase[]): void {
  /** A message the schema gives (`Kind "name" (apiVersion) field: ...`), or undefined for a rule's message. */
  const schemaLine = (c: AdmissionCase): string | undefined => {
    const prefix = `${kind} "${c.manifest.metadata?.name}" (${c.manifest.apiVersion}) `;
    return c.message?.startsWith(prefix) ? c.message.slice(prefix.length) : undefined;
  };

  describe.each(cases.map(c => [c.id, c] as const))('%s', (_id, c) => {
    test('gets its verdict and exact message on the L1, raw and included-YAML paths', () => {
      expectCase(c);
    });

    test('passes the JSON schema, or fails it with the case\'s message when that is what it tests', () => {
      const issues = validateManifest(c.manifest).map(formatIssue);
      const line = schemaLine(c);
      if (line === undefined) expect(issues).toEqual([]);
      else expect(issues.some(i => i.startsWith(line))).toBe(true);
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
