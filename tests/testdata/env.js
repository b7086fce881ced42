// Prints the environment the child received, one NAME=value per line.
for (const [k, v] of Object.entries(process.env)) console.log(`${k}=${v}`);
