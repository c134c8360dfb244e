/**
 * The real webhooks of kruise-rollout-manager v0.6.2, the default release, on the same corpus judge our admission targeting
 * that release: judge-suites.ts.
 */
import { rolloutsJudgeSuite } from './judge-suites';

rolloutsJudgeSuite('rollouts-0.6.2');
