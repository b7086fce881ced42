// The second DAP client's program: a function with two locals, called once.
function greet(name) {
  const greeting = "hello " + name;
  return greeting;
}
console.log(greet("traced"));
