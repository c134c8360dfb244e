import * as fc from 'fast-check';
import { DeploymentMigration } from '../src';

const counts = (m: DeploymentMigration) => m.steps.map(s => (s.deleteDeployment ? `${s.cloneSetReplicas}/-` : `${s.cloneSetReplicas}/${s.deploymentReplicas}`));

describe('DeploymentMigration', () => {
  test('with one pod of budget, each step moves one pod: the CloneSet scales up while the Deployment scales down, then the Deployment goes at 0 pods', () => {
    const m = new DeploymentMigration({ replicas: 4, maxUnavailable: 1 });
    expect(counts(m)).toEqual(['0/4', '1/3', '2/2', '3/1', '4/0', '4/-']);
    expect(m.lastStep).toBe(5);
    expect(m.step(1)).toEqual({
      step: 1, cloneSetReplicas: 1, deploymentReplicas: 3, deleteDeployment: false, peakPods: 5, minReadyPods: 3, waitFor: 'CloneSet: 1 pods ready; Deployment: 3 pods ready',
    });
    expect(m.step(5)).toMatchObject({ deleteDeployment: true, deploymentReplicas: 0, cloneSetReplicas: 4 });
  });

  test('with no pod of budget, the CloneSet surges first and the Deployment follows once the new pods are ready', () => {
    const m = new DeploymentMigration({ replicas: 3 });
    expect(counts(m)).toEqual(['0/3', '1/3', '1/2', '2/2', '2/1', '3/1', '3/0', '3/-']);
    expect(m.steps.every(s => s.minReadyPods >= 3)).toBe(true);
    expect(Math.max(...m.steps.map(s => s.peakPods))).toBe(4);
  });

  test('stepOf finds the step of live counts, so a run resumes from the cluster', () => {
    const m = new DeploymentMigration({ replicas: 4, maxUnavailable: 1 });
    expect(m.stepOf(0, 4)).toBe(0);
    expect(m.stepOf(2, 2)).toBe(2);
    expect(m.stepOf(4, 0)).toBe(4);
    expect(m.stepOf(4)).toBe(5);
    expect(m.stepOf(3, 3)).toBeUndefined();
  });

  test('refuses props and steps it cannot keep, with the reason', () => {
    expect(() => new DeploymentMigration({ replicas: 0 })).toThrow('DeploymentMigration: replicas 0 is not a pod count; pass the Deployment\'s spec.replicas, 1 or more');
    expect(() => new DeploymentMigration({ replicas: 3, maxUnavailable: 3 })).toThrow('DeploymentMigration: maxUnavailable 3 must be a whole number below replicas (3); it is how many pods may be unavailable at once');
    expect(() => new DeploymentMigration({ replicas: 3, maxSurge: 4 })).toThrow('DeploymentMigration: maxSurge 4 must be a whole number from 0 to replicas (3); it is how many pods may run beyond replicas');
    expect(() => new DeploymentMigration({ replicas: 3, maxSurge: 0 })).toThrow('DeploymentMigration: maxSurge and maxUnavailable are both 0, so no pod could ever move; allow one extra pod (maxSurge: 1) or one unavailable pod (maxUnavailable: 1)');
    expect(() => new DeploymentMigration({ replicas: 3 }).step(8)).toThrow('DeploymentMigration.step(8): there are steps 0 to 7 for 3 pods (maxUnavailable 0, maxSurge 1); pass one of them');
  });

  test('property: every migration ends with the Deployment deleted, never exceeds replicas + maxSurge pods nor drops below replicas - maxUnavailable ready pods', () => {
    // the oracle replays each step as the cluster sees it: pods of both workloads while the change is under way, deleted ones counted until gone
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), (n, u0, s0) => {
      const maxUnavailable = u0 % n;
      const maxSurge = s0 % (n + 1);
      fc.pre(maxUnavailable + maxSurge > 0);
      const m = new DeploymentMigration({ replicas: n, maxUnavailable, maxSurge });
      const last = m.steps[m.steps.length - 1];
      if (!last.deleteDeployment || last.cloneSetReplicas !== n) return false;
      for (let i = 1; i < m.steps.length - 1; i++) {
        const a = m.steps[i - 1];
        const b = m.steps[i];
        const peak = Math.max(a.cloneSetReplicas, b.cloneSetReplicas) + Math.max(a.deploymentReplicas, b.deploymentReplicas);
        const ready = a.cloneSetReplicas + Math.min(a.deploymentReplicas, b.deploymentReplicas);
        if (peak > n + maxSurge || ready < n - maxUnavailable) return false;
        if (b.cloneSetReplicas < a.cloneSetReplicas || b.deploymentReplicas > a.deploymentReplicas) return false;
        if (peak >= 2 * n && maxSurge < n) return false;
      }
      return m.steps.length <= 2 * n + 2;
    }));
  });
});
