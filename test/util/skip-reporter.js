/**
 * A jest reporter that ends the run with one line per skipped group of tests,
 * printed once, after jest's summary and outside any console frame:
 *
 *   skipped: conformance with upstream OpenKruise v1.9.0 CRDs (test/api/conformance.test.ts): ../shared/reference/kruise-v1.9.0/crds not found
 *
 * A group that needs reference material skips as one test titled
 * "skipped group: <why>" (test/util/reference.ts). Any other skipped or todo
 * test is printed too, by its full name, so that no skip goes unseen (except
 * those a `-t` name pattern leaves out).
 */
const path = require('path');

const GROUP = 'skipped group: ';

class SkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // with -t, jest skips every test the pattern leaves out: those are not worth a line
    this.filtered = Boolean(globalConfig.testNamePattern);
    this.lines = new Set();
  }

  onTestResult(_test, result) {
    const file = path.relative(this.rootDir, result.testFilePath);
    for (const t of result.testResults) {
      if (t.status !== 'pending' && t.status !== 'skipped' && t.status !== 'todo') continue;
      const group = t.ancestorTitles.join(' › ');
      if (t.title.startsWith(GROUP)) {
        this.lines.add(`skipped: ${group} (${file}): ${t.title.slice(GROUP.length)}`);
      } else if (!this.filtered) {
        const name = [...t.ancestorTitles, t.title].join(' › ');
        this.lines.add(`skipped: ${name} (${file})${t.status === 'todo' ? ': todo' : ''}`);
      }
    }
  }

  onRunComplete() {
    if (this.lines.size === 0) return;
    process.stderr.write(`${[...this.lines].join('\n')}\n`);
  }
}

module.exports = SkipReporter;
