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
import { KruiseInclude } from '../../src/include';
import { KruiseValidation } from '../../src/validation/register';
import { AdmissionCase } from '../fixtures/admission/types';

/** The paths every object can take (an L2, where one exists, is tested by hand). */
export type EntryPath = 'l1' | 'raw' | 'include';
export const ENTRY_PATHS: EntryPath[] = ['l1', 'raw', 'include'];

/** The L1 class of an apiVersion/kind. */
export function l1ClassOf(apiVersion: string, kind: string): any {
  for (const v of Object.values(kruise) as any[]) {
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
