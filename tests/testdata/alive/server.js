'use strict';
// Fixture of the alive tests: a server never closed.
const http = require('node:http');
const server = http.createServer((req, res) => res.end());
server.listen(0, '127.0.0.1', () => console.log('ready', server.address().port));
