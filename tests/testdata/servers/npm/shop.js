// A small Express API: GET /price?item=apple&qty=2. An unknown item throws in the handler;
// Express turns the throw into a 500 and logs the error (traced's throw events see it).
const express = require('express');

const prices = { apple: 3, pear: 4 };
const app = express();

app.get('/price', (req, res) => {
  const query = req.query;
  const unit = prices[query.item];
  if (unit === undefined) throw new Error(`no price for ${query.item}`);
  res.json({ total: unit * Number(query.qty) });
});

const server = app.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
