/**
 * The real webhooks of kruise-manager v1.9.1 (../shared/vendor), the default release, judge our admission
 * targeting that release, on a cluster of their own: judge-suites.ts.
 */
import { openKruiseJudgeSuite } from './judge-suites';

openKruiseJudgeSuite('openkruise-1.9.1');
