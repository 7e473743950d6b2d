#!/bin/sh
# For every graph of the test corpus: import, export (binary), import again,
# and compare the IR; then compile it with `tfc compile --emit mlir`.
# SavedModel imports carry their signatures as module attributes, which a
# GraphDef cannot hold, so the module line is left out of that comparison.
# A model whose manifest has "roundtrip_flags" compiles with them (a graph
# of between-graph replication asks for devices of a cluster's tasks).
# Prints one FAIL line per problem and a count.
corpus=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
count=0
for model in "$corpus"/*/; do
  for form in frozen.pb graph.pbtxt saved_model; do
    path=$model$form
    [ -e "$path" ] || continue
    count=$((count + 1))
    if ! tfc-translate --graphdef-to-mlir "$path" -o "$work/a.mlir" ||
       ! tfc-translate --mlir-to-graphdef "$work/a.mlir" -o "$work/b.pb" ||
       ! tfc-translate --graphdef-to-mlir "$work/b.pb" -o "$work/c.mlir"; then
      echo "FAIL translate $path"
      continue
    fi
    sed '/^module/d' "$work/a.mlir" > "$work/a.body"
    sed '/^module/d' "$work/c.mlir" > "$work/c.body"
    cmp -s "$work/a.body" "$work/c.body" || echo "FAIL roundtrip $path"
    flags=$(sed -n 's/.*"roundtrip_flags": "\(.*\)".*/\1/p' "$model/manifest.json")
    # shellcheck disable=SC2086
    tfc compile "$path" --emit mlir $flags -o "$work/compiled.mlir" ||
      echo "FAIL compile $path"
  done
done
echo "$count corpus graphs checked"
