#!/usr/bin/env bash
# Builds the DocC documentation of the Syringe library into .build-docs/Syringe.doccarchive.
#
# The symbol graph comes from the compiler (no package dependency on swift-docc-plugin), and
# `docc convert --warnings-as-errors` makes any DocC warning (a broken or ambiguous symbol
# link, a missing article) fail the script, so CI catches documentation that drifted from
# the code.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=".build-docs"
graphs="$PWD/$scratch/symbol-graphs"
archive="$scratch/Syringe.doccarchive"

if command -v docc >/dev/null 2>&1; then
    docc=(docc)
elif command -v xcrun >/dev/null 2>&1; then
    docc=(xcrun docc)
else
    echo "docs.sh: docc not found; it ships with the Swift toolchain" >&2
    exit 1
fi

mkdir -p "$graphs"
swift build --target Syringe --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"

if [ ! -f "$graphs/Syringe.symbols.json" ]; then
    echo "docs.sh: the build produced no symbol graph in $graphs" >&2
    exit 1
fi

rm -rf "$archive"
"${docc[@]}" convert Sources/Syringe/Syringe.docc \
    --additional-symbol-graph-dir "$graphs" \
    --output-path "$archive" \
    --fallback-display-name Syringe \
    --fallback-bundle-identifier org.syringe.Syringe \
    --warnings-as-errors

echo "docs.sh: documentation built in $archive"
