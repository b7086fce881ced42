// Never ends: a loop to step through, one statement at a time.
let n = 0;
for (;;) {
  n++;
}
