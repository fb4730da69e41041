# Sourced by run.sh and scaling.sh: pins the two packages' versions and installs them into a
# new temporary directory `$tmp` (Python package in `$tmp/py`, npm package in
# `$tmp/node_modules`), removed when the sourcing script exits.
PY_VERSION=0.64.6
NPM_VERSION=3.15.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "installing json-repair==$PY_VERSION and jsonrepair@$NPM_VERSION into $tmp" >&2
python3 -m pip install --quiet --target "$tmp/py" "json-repair==$PY_VERSION" >&2
(cd "$tmp" && npm init -y >/dev/null && npm install --silent "jsonrepair@$NPM_VERSION" >&2)
