/**
 * The reading of chart 1.9.1's templates as data (_chart-template.ts) against
 * the real helm binary rendering the same files: the objects must be equal,
 * with the default values and with the values that change what the templates
 * render (aksIntegration, PodWebhook off, external certificate annotations,
 * EnableExternalCerts, the StorageClass gate, another namespace). helm is the
 * cluster tier's build (test/cluster/build-helm.sh, which the background
 * prebuild runs); this file uses it when it is built and never builds it, so
 * without it the group is one skipped line. The real node's Helm takeover
 * file holds the same equality on what helm installs.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { CHART_1_9_1_TEMPLATES, chartValues, renderObjects, renderTemplate } from './_chart-template';
import { SKIPPED_GROUP, describeWithReference } from '../util/reference';

const CACHE = path.resolve(__dirname, '..', '..', '.cache', 'cluster');

/** The helm binary build-helm.sh built, if one is there (a build is complete when its stamp is written). */
function builtHelm(): string | undefined {
  if (!fs.existsSync(CACHE)) return undefined;
  return fs.readdirSync(CACHE).filter(d => /^helm-v\d/.test(d)).map(d => path.join(CACHE, d))
    .filter(d => fs.existsSync(path.join(d, 'stamp')) && fs.existsSync(path.join(d, 'bin', 'helm')))
    .map(d => path.join(d, 'bin', 'helm'))[0];
}

const VARIANTS: Record<string, any> = {
  'default values': {},
  'aksIntegration': { webhookConfiguration: { aksIntegration: true } },
  'PodWebhook off, StorageClass gate, EnableExternalCerts, annotations': {
    featureGates: 'ImagePullJobGate=true,PodWebhook=false,StatefulSetAutoResizePVCGate=true,EnableExternalCerts=true',
    externalCerts: { annotations: { 'cert-manager.io/inject-ca-from': 'kruise-system/kruise-webhook-certs' } },
  },
  'another namespace and timeout, listed groups': { installation: { namespace: 'openkruise', roleListGroups: ['apps', 'apps.kruise.io'] }, webhookConfiguration: { timeoutSeconds: 10 } },
};

describeWithReference('chart 1.9.1\'s templates read as data', CHART_1_9_1_TEMPLATES, () => {
  test('an action the reading does not evaluate is refused, not misread', () => {
    expect(() => renderTemplate('a: {{ include "kruise.name" . }}', {}, 't.yaml')).toThrow('t.yaml: the action {{ include "kruise.name" . }} is not one this reading evaluates');
    expect(() => renderTemplate('{{- if .Values.a }}x', {}, 't.yaml')).toThrow('t.yaml: 1 if left open');
  });

  test('trim markers and conditions as Go templates read them', () => {
    expect(renderTemplate('a:\n  - x\n{{- if .Values.on }}\n  - y\n{{- end }}\nb: {{ .Values.n }}\n', { on: false, n: 3 })).toBe('a:\n  - x\nb: 3\n');
    expect(renderTemplate('a:\n  - x\n{{- if .Values.on }}\n  - y\n{{- end }}\n', { on: true })).toBe('a:\n  - x\n  - y\n');
    expect(renderTemplate('{{- if not (contains "P=false" .Values.g) }}on{{- end }}', { g: 'A=true,P=false' })).toBe('');
    expect(renderTemplate('m:{{ toYaml .Values.l | nindent 2}}', { l: ['*'] })).toBe('m:\n  - "*"');
  });

  const helm = builtHelm();
  if (!helm) {
    test.skip(`${SKIPPED_GROUP}the helm binary is not built yet (test/cluster/build-helm.sh; the cluster tier builds it)`, () => undefined);
    return;
  }

  test.each(Object.keys(VARIANTS))('helm template renders what the reading renders: %s', variant => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-1.9.1-'));
    try {
      fs.mkdirSync(path.join(dir, 'templates'));
      fs.writeFileSync(path.join(dir, 'Chart.yaml'), stringify({ apiVersion: 'v1', name: 'kruise', version: '1.9.1' }));
      for (const f of CHART_1_9_1_TEMPLATES) fs.copyFileSync(f, path.join(dir, 'templates', path.basename(f)));
      const values = chartValues(VARIANTS[variant]);
      fs.writeFileSync(path.join(dir, 'values.yaml'), stringify(values));
      const r = spawnSync(helm, ['template', 'kruise', dir], { encoding: 'utf-8', env: { PATH: process.env.PATH, HOME: dir } });
      expect(`${r.status} ${r.stderr}`).toBe('0 ');
      // helm prints the objects in its install order (by kind); each object is compared with the reading's of the same kind and name
      const byName = (objs: any[]) => Object.fromEntries(objs.map(o => [`${o.kind}/${o.metadata.name}`, o]));
      const byHelm = byName(parseAllDocuments(r.stdout).map(d => d.toJS()).filter(o => o && typeof o === 'object'));
      const byReading = byName(CHART_1_9_1_TEMPLATES.flatMap(f => renderObjects(f, values)));
      expect(Object.keys(byHelm).length).toBeGreaterThan(15);
      expect(byHelm).toEqual(byReading);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
