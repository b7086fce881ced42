// client.mjs: the official MCP TypeScript SDK client driving traced's MCP server, for
// tests/mcp_client_test.go. It lists the tools, then runs start, wait, state, eval and stop,
// and prints one JSON line per step: {step, isError, text, bytes}. The Go test checks each answer.
//
//   node client.mjs stdio <traced binary> [args...]   launches `traced mcp` itself
//   node client.mjs http <url> <token>                 talks to /mcp of a running service
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, where, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({ command: where, args: rest, cwd: process.cwd(), stderr: "inherit" });
} else if (mode === "http") {
  transport = new StreamableHTTPClientTransport(new URL(where), {
    requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } },
  });
} else {
  console.error("usage: node client.mjs stdio|http ...");
  process.exit(2);
}

const client = new Client({ name: "traced-e2e", version: "1.0.0" });
await client.connect(transport);
const out = (step, isError, text, bytes) => console.log(JSON.stringify({ step, isError, text, bytes }));

const tools = await client.listTools();
out("tools", false, tools.tools.map((t) => t.name).join(","), JSON.stringify(tools).length);
out("instructions", false, client.getInstructions() ?? "", 0);

const name = `e2e-${mode}`;
const steps = [
  ["start", { target: "retry.js", name, brk: true }],
  ["wait", { session: name, kinds: "pause" }],
  ["state", { session: name }],
  ["eval", { session: name, expression: "typeof attempt" }],
  ["stop", { session: name }],
];
for (const [tool, args] of steps) {
  const res = await client.callTool({ name: tool, arguments: args });
  const text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
  out(tool, Boolean(res.isError), text, JSON.stringify(res).length);
}
await client.close();
