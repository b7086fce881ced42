"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// app totals two batches of orders; the second batch is bad unless argv[2] is "good".
const service_1 = require("./service");
function total(orders) {
    let sum = 0;
    for (const o of orders) {
        const doubled = (0, service_1.validate)(o);
        sum += doubled;
    }
    return sum;
}
function main() {
    const good = [{ id: "a", qty: 1 }, { id: "b", qty: 2 }];
    const first = total(good);
    console.log(`total ${first}`);
    if (process.argv[2] === "good") {
        return;
    }
    const bad = [{ id: "c", qty: 0 }];
    const second = total(bad);
    console.log(`never ${second}`);
}
main();
//# sourceMappingURL=app.js.map