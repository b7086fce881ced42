// Fixture of the lost-inspector test: closes its own inspector, then keeps running.
console.log("closing");
require("inspector").close();
setInterval(() => {}, 1000);
console.log("closed");
