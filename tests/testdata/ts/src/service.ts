// service validates orders; a bad quantity throws on the line marked THROW.
export interface Order {
  id: string;
  qty: number;
}

export function validate(order: Order): number {
  if (order.qty <= 0) {
    throw new Error(`invalid quantity ${order.qty} for order ${order.id}`); // THROW
  }
  return order.qty * 2;
}
