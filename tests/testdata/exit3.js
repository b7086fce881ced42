// Exits with code 3 without throwing.
console.log("giving up");
process.exit(3);
