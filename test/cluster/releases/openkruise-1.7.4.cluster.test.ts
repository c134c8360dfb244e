/**
 * The real webhooks of kruise-manager v1.7.4 (../shared/vendor) judge our admission targeting
 * that release, on a cluster of their own: judge-suites.ts.
 */
import { openKruiseJudgeSuite } from './judge-suites';

openKruiseJudgeSuite('openkruise-1.7.4');
