// traced's preload, run before the program's main script (node --require). Node hands its own
// flags (process.execArgv) to every fork and worker it starts: the inspector flags traced
// launched it with would leave each child waiting for a debugger that never comes. They are
// dropped here, so children start as if node had been run without them.
"use strict";
process.execArgv = process.execArgv.filter((a) => !/^--(inspect|debug)/.test(a));
