// Fixture of the frozen-program test: stops itself with SIGSTOP; SIGCONT lets it go on.
setInterval(() => {}, 1000);
console.log("stopping");
process.kill(process.pid, "SIGSTOP");
console.log("continued");
