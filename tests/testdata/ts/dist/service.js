"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validate = validate;
function validate(order) {
    if (order.qty <= 0) {
        throw new Error(`invalid quantity ${order.qty} for order ${order.id}`); // THROW
    }
    return order.qty * 2;
}
//# sourceMappingURL=service.js.map