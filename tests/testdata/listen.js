// Fixture of the start-answer tests: a server that says where it listens, in colour too.
const http = require("http");
const server = http.createServer((req, res) => res.end("ok"));
server.listen(0, "127.0.0.1", () => {
  console.log("listening on :" + server.address().port);
  process.stdout.write("\x1b[32mready\x1b[0m\n");
});
