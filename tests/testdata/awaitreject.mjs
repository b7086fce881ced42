// Fixture of TestAsyncFrames, which names its line numbers: edit with care.
import { readFile } from "node:fs/promises";

async function loadConfig(path) {
  const text = await readFile(path, "utf8");
  return JSON.parse(text);
}

const config = await loadConfig("/nonexistent/traced-config.json");
console.log(config);
