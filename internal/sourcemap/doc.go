// Package sourcemap maps positions between generated JavaScript and its original sources, in
// both directions, from one source map.
//
// Generated to original lookups go through github.com/go-sourcemap/sourcemap. That library has
// no reverse lookup and does not expose its mappings, so this package decodes the same
// "mappings" string itself (a small base64 VLQ decoder) into a reverse index of original
// (source, line) to generated locations, naming sources exactly as the library does so that the
// two directions agree.
//
// They agree on positions too: every generated location the reverse index gives maps forward to
// the line it was given for. The library answers for a generated position with the first segment
// there (even one that maps to nothing) and finds segments by binary search, so a segment behind
// another at the same position, or one it cannot find in a line out of generated order, is left
// out of the index; values the library would misread (2^30 and over) are refused.
//
// # Positions
//
// Every 0-based/1-based conversion of a position in traced happens in this package. The public
// API speaks one convention: a [Pos] has a 1-based Line and a 1-based Column, as editors and
// stack traces show them to people. The Chrome DevTools Protocol is 0-based in both; convert at
// the edge with [FromCDP] and [Pos.CDP], and never by hand elsewhere. (Internally the library is
// 1-based in lines and 0-based in columns, and the source map format is 0-based in both; neither
// leaks out of this package.)
//
// # Sources
//
// Source names are resolved the way the library resolves them (sourceRoot, then the map's own
// URL), and then, where the result is a file, turned into an absolute file path: a map at
// /app/dist/app.js.map listing "../src/app.ts" names the source "/app/src/app.ts". Names with
// another scheme (webpack://, http://) are kept as URLs.
package sourcemap
