/**
 * One temporary folder per jest run: globalSetup makes it and points TMPDIR at
 * it (the workers, and every program a test starts, inherit it, so every
 * os.tmpdir() of the run lands inside); globalTeardown removes it, whether the
 * run passed or not. A run leaves nothing in the machine's /tmp.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const KEY = 'CDK8S_KRUISE_TEST_TMPDIR';

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-kruise-test-'));
  process.env[KEY] = dir;
  process.env.TMPDIR = dir;
}

async function teardown() {
  const dir = process.env[KEY];
  if (dir && path.basename(dir).startsWith('cdk8s-kruise-test-')) fs.rmSync(dir, { recursive: true, force: true });
}

module.exports = { setup, teardown };
