// Fixture of the trace-output tests: a TAP report written to stdout, coloured as a runner
// writes it for a terminal, and a warning on stderr.
process.stdout.write("TAP version 13\n");
process.stdout.write("\x1b[32mok 1 - adds\x1b[0m\n");
process.stderr.write("\x1b[33mwarn: slow test\x1b[0m\n");
console.log("1..1");
