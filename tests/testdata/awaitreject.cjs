// Fixture of TestAsyncFrames, which names its line numbers: edit with care.
const fs = require("node:fs");

async function loadConfig(path) {
  const text = await fs.promises.readFile(path, "utf8");
  return JSON.parse(text);
}

async function main() {
  const config = await loadConfig("/nonexistent/traced-config.json");
  console.log(config);
}
main();
