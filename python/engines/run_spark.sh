#!/usr/bin/env bash
# The Spark test (test_spark.py), kept out of .ci/run for its cost: Java and a ~300 MB
# pyspark. Installs what it needs in a new venv; run from anywhere:
#   bash python/engines/run_spark.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v java >/dev/null; then
    apt-get update -qq && apt-get install -y -qq default-jre-headless >/dev/null
fi
java -version 2>&1 | head -1
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
export PATH="$venv/bin:$PATH" # the maturin backend runs the `maturin` it installs
pip install --quiet maturin pytest pyspark pandas pyarrow
pip install --quiet --no-build-isolation ./python
python -m pytest python/engines -q
