module.exports = require('./tmp-dir').setup;
