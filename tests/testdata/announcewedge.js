// Fixture of the announce FIFO test: the program wedges traced's announce FIFO three ways, each
// followed by a fork that must still run: a 100 KiB line without a newline, half an
// announcement, and a regular file put in the FIFO's place.
const fs = require("node:fs");
const { fork } = require("node:child_process");
if (process.argv[2] === "child") {
  console.log("child: ran", process.argv[3]);
  return;
}
const fifo = process.env.TRACED_ANNOUNCE;
const wedges = {
  long: () => fs.appendFileSync(fifo, "x".repeat(100 << 10)),
  half: () => fs.appendFileSync(fifo, '{"pid":1,"url":"ws://127.0.0.1:1/'),
  file: () => {
    fs.rmSync(fifo);
    fs.writeFileSync(fifo, "");
  },
};
const next = (names) => {
  if (names.length === 0) return console.log("main: all ran");
  wedges[names[0]]();
  fork(__filename, ["child", names[0]]).on("exit", (code) => {
    console.log("main: child after", names[0], "exited", code);
    next(names.slice(1));
  });
};
next(["long", "half", "file"]);
