// Fixture of the inspection and mutation tests, which name its line numbers: edit with care.
class Job {
  constructor(id, retries) { this.id = id; this.retries = retries; this.tags = ["a", "b"]; }
}
const jobs = [new Job("j1", 1), new Job("j2", 2), new Job("j3", 3)];
let limit = 10;
function total(list) {
  let sum = 0;
  for (const j of list) sum += j.retries;
  return sum;
}
function run() {
  const result = total(jobs);
  debugger;
  console.log("result", result, "limit", limit);
  console.warn("done");
}
run();
