// console.log(i) N times, as count.js, but from a "TypeScript" original: the mapped capture path.
const n = Number(process.argv[2] || 100000);
for (let i = 0; i < n; i++) console.log(i);
//# sourceMappingURL=count.js.map
