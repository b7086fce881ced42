'use strict';
const { matches } = require('slowparse');

let found = 0;
const until = Date.now() + 1500;
while (Date.now() < until) {
  if (matches('a'.repeat(20) + '!')) found++;
}
console.log('found', found);
