// Pause reasons as a user reads them (tests/pause_reasons_test.go): a breakpoint on line 4, a
// step from it, then a debugger statement on line 7; then a loop that a pause request stops.
let total = 0;
total += 1;
total += 2;
total += 3;
debugger;
setInterval(() => { total++; }, 5);
