// Cluster tier test files share one API server: run them in name order so a
// run is reproducible.
const Sequencer = require('@jest/test-sequencer').default;

class ByName extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => a.path.localeCompare(b.path));
  }
}

module.exports = ByName;
