import * as fs from 'fs';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';
import { synthOn, objectOn, errorLines } from '../util/admission';
test('diff', () => {
  const out: any[] = [];
  for (const c of [...admissionCases(), ...rolloutAdmissionCases()]) {
    const err = synthOn('raw', c.manifest);
    if (c.allowed) { if (err) out.push({ id: c.id, allowedButGot: err }); continue; }
    const head = `[test/obj] ${objectOn('raw', c.manifest)} `;
    const lines = errorLines(err).filter(l => l.startsWith(head)).map(l => l.slice(head.length));
    const old = c.message!.replace(/^[A-Za-z]+ "[^"]*" \([^)]*\) /, '');
    if (!lines.includes(old)) out.push({ id: c.id, old: c.message, now: lines, raw: lines.length ? undefined : err });
  }
  fs.writeFileSync('/tmp/diffmsgs.json', JSON.stringify(out, null, 1));
});
