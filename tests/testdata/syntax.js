// A syntax error: the script never runs.
function broken( {
