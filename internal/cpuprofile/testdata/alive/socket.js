'use strict';
// An open socket to a server of another process (its port in argv).
const net = require('node:net');
net.connect(Number(process.argv[2]), '127.0.0.1');
