import * as fs from 'fs';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { kindFixtures } from '../fixtures/kinds';
test('x', () => {
  const out: any[] = [];
  for (const f of kindFixtures(servedVersions)) {
    const broken = JSON.parse(JSON.stringify(f.valid));
    f.breakIt(broken);
    const now = validateManifest(broken).map(formatIssue);
    if (now.length === 1 && now[0] !== f.problem) out.push({ id: f.kind, old: f.problem, now });
  }
  fs.writeFileSync('/tmp/diffmsgs.json', JSON.stringify(out, null, 1));
});
