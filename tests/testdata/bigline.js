// One console.log of a 10 MiB string: one 10 MiB CDP message.
console.log("x".repeat(10 << 20));
console.log("still alive");
