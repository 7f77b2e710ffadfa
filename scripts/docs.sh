#!/usr/bin/env bash
# Builds the DocC documentation of the Syringe library into .build-docs/Syringe.doccarchive,
# and that of SyringeTesting, its test helpers, into .build-docs/SyringeTesting.doccarchive.
#
# The symbol graph comes from the compiler (no package dependency on swift-docc-plugin), and
# `docc convert --warnings-as-errors` makes any DocC warning (a broken or ambiguous symbol
# link, a missing article) fail the script, so CI catches documentation that drifted from
# the code.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=".build-docs"
graphs="$PWD/$scratch/symbol-graphs"

if command -v docc >/dev/null 2>&1; then
    docc=(docc)
elif command -v xcrun >/dev/null 2>&1; then
    docc=(xcrun docc)
else
    echo "docs.sh: docc not found; it ships with the Swift toolchain" >&2
    exit 1
fi

mkdir -p "$graphs"
# Building SyringeTesting builds Syringe too; each module writes its own symbol graphs.
swift build --target SyringeTesting --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -emit-extension-block-symbols

# Each archive gets the graphs of its own module only: Syringe.symbols.json and Syringe@….json,
# or SyringeTesting.symbols.json and SyringeTesting@….json (its extensions to Resolver and Trait).
convert() {
    local module="$1"
    local module_graphs="$PWD/$scratch/symbol-graphs-$module"
    local module_archive="$scratch/$module.doccarchive"
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "docs.sh: the build produced no symbol graph for $module in $graphs" >&2
        exit 1
    fi
    rm -rf "$module_graphs" "$module_archive"
    mkdir -p "$module_graphs"
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$module_graphs/" \;
    "${docc[@]}" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$module_graphs" \
        --output-path "$module_archive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.syringe.$module" \
        --warnings-as-errors
    echo "docs.sh: documentation built in $module_archive"
}

convert Syringe
convert SyringeTesting
