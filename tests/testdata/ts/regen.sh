#!/usr/bin/env bash
# regen.sh rebuilds every generated fixture in this directory from src/*.ts; the tests use the
# committed output and never need npm. Run it from anywhere after changing a source:
#
#   bash tests/testdata/ts/regen.sh
#
# It needs node and npx (the npm registry): typescript@5 and esbuild are fetched by npx into
# npm's cache, never into this tree. Outputs:
#   dist/         tsc, outDir dist + rootDir src, separate .js.map files (sources "../src/*.ts")
#   dist-inline/  tsc, inlineSourceMap + inlineSources (base64 data: URL, sourcesContent)
#   bundle/       esbuild, src/app.ts and src/service.ts bundled into app.js + app.js.map
#   esm/          esbuild --format=esm, the same bundle as an ES module app.mjs + app.mjs.map
#   corrupt/      bundle/app.js whose app.js.map is truncated JSON
#   missing/      bundle/app.js whose sourceMappingURL names a map that does not exist
# Then it runs each entry under node and checks it prints and throws as README.md says.
set -euo pipefail
cd "$(dirname "$0")"

TSC=(npx --yes -p typescript@5 tsc)
ESBUILD=(npx --yes esbuild@0)

rm -rf dist dist-inline bundle esm corrupt missing
"${TSC[@]}" -p tsconfig.json
"${TSC[@]}" -p tsconfig.inline.json
"${ESBUILD[@]}" src/app.ts --bundle --platform=node --target=node20 --sourcemap \
	--outfile=bundle/app.js --log-level=warning
"${ESBUILD[@]}" src/app.ts --bundle --platform=node --target=node20 --sourcemap --format=esm \
	--outfile=esm/app.mjs --log-level=warning

mkdir -p corrupt missing
cp bundle/app.js corrupt/app.js
head -c 40 bundle/app.js.map >corrupt/app.js.map
sed 's|sourceMappingURL=app.js.map|sourceMappingURL=gone.js.map|' bundle/app.js >missing/app.js
grep -q 'sourceMappingURL=gone.js.map' missing/app.js

# Each entry prints "total 6", then throws from src/service.ts (exit 1); with "good" it exits 0.
for entry in dist/app.js dist-inline/app.js bundle/app.js esm/app.mjs corrupt/app.js missing/app.js; do
	out=$(node --enable-source-maps "$entry" 2>&1) && { echo "$entry: expected a throw" >&2; exit 1; }
	grep -q '^total 6$' <<<"$out" || { echo "$entry: no 'total 6' in: $out" >&2; exit 1; }
	grep -q 'invalid quantity 0 for order c' <<<"$out" || { echo "$entry: no error in: $out" >&2; exit 1; }
	[ "$(node "$entry" good)" = "total 6" ] || { echo "$entry good: wrong output" >&2; exit 1; }
done
echo "regenerated and checked: dist dist-inline bundle esm corrupt missing"
