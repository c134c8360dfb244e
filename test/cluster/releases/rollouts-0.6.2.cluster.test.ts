/**
 * The real webhooks of kruise-rollout-manager v0.6.2, the default release, judge our admission targeting
 * that release, on a cluster of their own: judge-suites.ts.
 */
import { rolloutsJudgeSuite } from './judge-suites';

rolloutsJudgeSuite('rollouts-0.6.2');
