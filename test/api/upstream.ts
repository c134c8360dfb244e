/**
 * Access to the upstream CRDs kept beside the project: OpenKruise v1.9.0
 * (../shared/reference/kruise-v1.9.0/crds) and Kruise Rollouts v0.6.2
 * (../shared/reference/kruise-rollout-v0.6.2/crds, copied from its Helm
 * chart). Tests that need them skip as one group each when a folder is
 * absent (test/util/reference.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { REFERENCE_DIR, describeWithReference } from '../util/reference';

/** One folder of upstream CRDs. */
export class UpstreamCrds {
  constructor(
    /** What the CRDs are, for test names, e.g. `OpenKruise v1.9.0`. */
    public readonly product: string,
    public readonly dir: string,
    /** Turns the file's text into plain YAML (the Rollouts chart's CRDs are Helm templates). */
    private readonly untemplate: (text: string) => string = t => t,
  ) {}

  public available(): boolean {
    return fs.existsSync(this.dir);
  }

  /** Every upstream CRD file name, sorted. */
  public files(): string[] {
    return fs.readdirSync(this.dir).filter(f => f.endsWith('.yaml')).sort();
  }

  public read(file: string): any {
    return parse(this.untemplate(fs.readFileSync(path.join(this.dir, file), 'utf-8')));
  }

  /** `describe` when the reference exists, otherwise the group as one skipped test saying what is missing. */
  public describe(name: string, fn: () => void): void {
    describeWithReference(name, [this.dir], fn);
  }
}

/** The Helm value the Rollouts chart puts into the conversion webhook's namespace. */
export const ROLLOUT_NAMESPACE_PLACEHOLDER = '{{ .Values.installation.namespace }}';

export const OPENKRUISE = new UpstreamCrds('OpenKruise v1.9.0', path.join(REFERENCE_DIR, 'kruise-v1.9.0', 'crds'));

/** The Rollouts chart's CRDs, rendered for the chart's default install namespace. */
export const KRUISE_ROLLOUTS = new UpstreamCrds('Kruise Rollouts v0.6.2', path.join(REFERENCE_DIR, 'kruise-rollout-v0.6.2', 'crds'),
  text => text.split(ROLLOUT_NAMESPACE_PLACEHOLDER).join('kruise-rollout'));

