module.exports = require('./tmp-dir').teardown;
