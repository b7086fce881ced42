// The program `npm run greet` starts (tests/runners_debug_test.go).
const who = "npm";
console.log(`hello from ${who}`);
