/**
 * The real webhooks of kruise-manager v1.9.0, the default release, on the same corpus judge our admission targeting
 * that release: judge-suites.ts.
 */
import { openKruiseJudgeSuite } from './judge-suites';

openKruiseJudgeSuite('openkruise-1.9.0');
