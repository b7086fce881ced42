// Fixture of the output text test: one stdout line of 3-byte characters past traced's 1 MiB line
// cap (which falls inside one), then a line holding bytes that are not UTF-8.
process.stdout.write("日".repeat(400000) + "\n");
process.stdout.write(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]));
