// Hunt fixture: a server whose /total answers 500: one line item has no price, and the
// total's reducer reads .amount of it.
const http = require("node:http");

const carts = {
  a: [{ sku: "pen", price: { amount: 2 } }, { sku: "ink", price: { amount: 5 } }],
  b: [{ sku: "pad", price: { amount: 3 } }, { sku: "gift" }],
};

function total(items) {
  return items.reduce((sum, item) => sum + item.price.amount, 0);
}

const server = http.createServer((req, res) => {
  const cart = new URL(req.url, "http://x").searchParams.get("cart");
  try {
    res.end(JSON.stringify({ total: total(carts[cart]) }));
  } catch (err) {
    console.error("total failed:", err.message);
    res.statusCode = 500;
    res.end("internal error");
  }
});
server.listen(0, "127.0.0.1", () => console.log("listening on", server.address().port));
