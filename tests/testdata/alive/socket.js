'use strict';
// Fixture of the alive tests: an open socket. Its server is closed once it accepted it, so
// only the connection (both of its ends) keeps the program alive.
const net = require('node:net');
let ends = 0;
const ready = () => ++ends === 2 && console.log('ready');
const server = net.createServer(() => {
  server.close();
  ready();
});
server.listen(0, '127.0.0.1', () => net.connect(server.address().port, '127.0.0.1', ready));
