// Hunt fixture: the price with tax, rounded to cents; the bug: the rate is applied twice.
function withTax(net, rate) {
  const gross = net * (1 + rate);
  return Math.round(gross * (1 + rate) * 100) / 100;
}
module.exports = { withTax };
