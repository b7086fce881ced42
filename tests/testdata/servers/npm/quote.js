// A small fastify API with its logger on: GET /quote?item=apple. An unknown item throws in the
// handler; fastify answers 500 and its logger (pino) prints the error as a JSON line on stdout.
const fastify = require('fastify')({ logger: true });

const prices = { apple: 3, pear: 4 };

fastify.get('/quote', async (req) => {
  const query = req.query;
  const unit = prices[query.item];
  if (unit === undefined) throw new Error(`no quote for ${query.item}`);
  return { total: unit };
});

fastify.listen({ port: 0, host: '127.0.0.1' }).then(() => console.log(`listening on ${fastify.server.address().port}`));
