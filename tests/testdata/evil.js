// Must never run: a test points NODE_OPTIONS at it.
console.log("EVIL ran");
