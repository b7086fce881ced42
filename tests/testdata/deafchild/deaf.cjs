// Preloaded before traced's preload in the child: the inspector it opens is announced on port 1,
// where nothing listens.
const inspector = require("node:inspector");
const url = inspector.url;
inspector.url = () => url()?.replace(/:\d+\//, ":1/");
