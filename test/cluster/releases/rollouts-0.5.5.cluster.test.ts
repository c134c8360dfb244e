/**
 * The real webhooks of kruise-rollout-manager v0.5.5 (Go module proxy, the tag's commit) judge our admission targeting
 * that release, on a cluster of their own: judge-suites.ts.
 */
import { rolloutsJudgeSuite } from './judge-suites';

rolloutsJudgeSuite('rollouts-0.5.5');
