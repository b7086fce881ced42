// retry.js: a job retried until an attempt succeeds; the CLI tests hunt the second attempt.
function attempt(job) {
  job.retries += 1;
  const ok = job.retries >= 3;
  return ok;
}
const job = { id: "job-42", retries: 0 };
while (!attempt(job)) {
  console.log("retry", job.retries);
}
console.log("done after", job.retries);
