import { cases } from '../fixtures/admission/node-image';
import { expectCase } from '../util/admission';

test.each(cases.map(c => [c.id, c] as const))('%s', (_id, c) => expectCase(c));
