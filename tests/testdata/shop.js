// Fixture of the docs tests: a module-scoped class (not a global), exported, with live objects.
class Cart {
  constructor(id) {
    this.id = id;
  }
}
const carts = [new Cart(1), new Cart(2)];
module.exports = { Cart, carts };
setInterval(() => {}, 1000);
