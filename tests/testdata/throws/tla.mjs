// An ESM top-level await whose rejection ends the process: V8 predicts it caught.
async function load(name) {
  const found = false;
  if (!found) throw new Error(`no config ${name}`);
}
console.log("start");
await load("prod");
