/**
 * `npx projen bench`: how much synth costs with cdk8s-kruise compared with
 * cdk8s-plus-28, measured in one run on one machine and reported as ratios
 * (absolute times vary by machine; the ratio is the number to watch).
 *
 * Each case builds an app of N workloads with the same containers and
 * synthesizes it to YAML; our side includes the schema validation and the
 * admission rules that run at synth.
 */
import { performance } from 'perf_hooks';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, CloneSet, SidecarSet } from '../src';

const N = Number(process.env.BENCH_WORKLOADS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

type Factory = (chart: Chart, id: string, i: number) => void;
const SIDECAR_SETS = 50;

const container: kplus.ContainerProps = {
  image: 'nginx:1.27',
  portNumber: 80,
  securityContext: { user: 1000, group: 1000 },
  resources: { cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) } },
};

function synthOnce(factory: Factory): number {
  const app = new App({ outdir: '/dev/null' });
  const chart = new Chart(app, 'bench');
  const start = performance.now();
  for (let i = 0; i < N; i++) factory(chart, `w${i}`, i);
  app.synthYaml();
  return performance.now() - start;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(factory: Factory): number {
  synthOnce(factory); // warm-up: module loading, schema compilation
  return median(Array.from({ length: ROUNDS }, () => synthOnce(factory)));
}

const cases: Array<{ name: string; ours: Factory; baseline: Factory }> = [
  {
    name: 'CloneSet vs kplus.Deployment',
    ours: (c, id) => { new CloneSet(c, id, { replicas: 3, containers: [container] }); },
    baseline: (c, id) => { new kplus.Deployment(c, id, { replicas: 3, containers: [container] }); },
  },
  {
    name: 'AdvancedStatefulSet vs kplus.StatefulSet',
    ours: (c, id) => { new AdvancedStatefulSet(c, id, { replicas: 3, containers: [container] }); },
    baseline: (c, id) => { new kplus.StatefulSet(c, id, { replicas: 3, containers: [container] }); },
  },
  {
    // the fleet case: every SidecarSet selects its own team's workloads, so the
    // app-wide checks (conflicts, injection) meet each workload once
    name: `CloneSet + ${SIDECAR_SETS} SidecarSets vs kplus.Deployment`,
    ours: (c, id, i) => {
      if (i < SIDECAR_SETS) {
        new SidecarSet(c, `sidecars${i}`, {
          selector: kplus.LabelSelector.of({ labels: { team: `t${i}` } }),
          containers: [{ name: `agent-${i}`, image: 'fluent/fluent-bit:3.1' }],
        });
      }
      const w = new CloneSet(c, id, { replicas: 3, containers: [container] });
      w.podMetadata.addLabel('team', `t${i % SIDECAR_SETS}`);
    },
    baseline: (c, id, i) => {
      const w = new kplus.Deployment(c, id, { replicas: 3, containers: [container] });
      w.podMetadata.addLabel('team', `t${i % SIDECAR_SETS}`);
    },
  },
];

console.log(`${N} workloads per app, median of ${ROUNDS} synths after a warm-up`);
console.log('| case | cdk8s-plus-28 (ms) | cdk8s-kruise (ms) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
for (const c of cases) {
  const base = measure(c.baseline);
  const ours = measure(c.ours);
  console.log(`| ${c.name} | ${base.toFixed(0)} | ${ours.toFixed(0)} | ${(ours / base).toFixed(2)}x |`);
}
