'use strict';
// A server never closed.
const http = require('node:http');
http.createServer((req, res) => res.end()).listen(0, '127.0.0.1');
