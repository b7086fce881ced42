// A header comment: the first statement is on line 4.
// Breakpoints on lines 2 and 3 slide to it.

const first = "first";
console.log(first);
