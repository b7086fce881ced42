// Says which trace it runs in (traced gives the child TRACEPARENT for the session's root span),
// logs at two levels, then throws: what the OTLP export test finds again in Jaeger.
console.log("traceparent", process.env.TRACEPARENT);
console.error("resource", process.env.OTEL_RESOURCE_ATTRIBUTES);
function charge(order) {
  return order.card.number; // TypeError: cannot read properties of undefined
}
charge({ id: 7 });
