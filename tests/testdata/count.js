// console.log(i) N times (default 100000): the shape of the raw CDP throughput reference.
const n = Number(process.argv[2] || 100000);
for (let i = 0; i < n; i++) console.log(i);
