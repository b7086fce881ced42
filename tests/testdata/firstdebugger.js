debugger;
console.log("after the first statement");
