// Never exits on its own.
setInterval(() => console.log("tick"), 50);
