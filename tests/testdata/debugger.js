// A debugger statement must not stop a trace.
debugger;
console.log("after debugger");
