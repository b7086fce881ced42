'use strict';
// A catastrophically backtracking pattern: nested quantifiers over the same characters.
const pattern = /^(a+)+$/;

function matches(text) {
  return pattern.test(text);
}

module.exports = { matches };
