// An unhandled promise rejection.
async function load() {
  throw new Error("load failed");
}
load();
