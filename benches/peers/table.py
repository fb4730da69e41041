"""Prints the side-by-side tables from criterion's estimates and the peers' JSON objects.

Each peer is compared with llmout producing the same kind of output: repaired JSON text
(llmout's `repair::to_string_counted`, which counts its fixes; `repair::to_string`, which
also records each one, has a row of its own and a line below the table) or a parsed value
(llmout's `repair::parse`, a `serde_json::Value`; Python's `loads` and npm's string +
`JSON.parse` are values too). Rust numbers are criterion's median, which a busy machine
disturbs less than the mean."""
import json
import sys

criterion, inputs, py, node, py_version, npm_version = sys.argv[1:7]
rust_correct = json.load(open(f"{inputs}/rust_correct.json"))
python = json.load(open(py))
npm = json.load(open(node))

for doc, what in [
    ("messy_common", "without `#` comments and invalid escapes"),
    ("messy", "the full catalogue"),
]:
    size = len(open(f"{inputs}/{doc}.json", encoding="utf-8").read().encode("utf-8"))

    def rust(name):
        est = json.load(open(f"{criterion}/{doc}/{name}/new/estimates.json"))
        return size / (est["median"]["point_estimate"] / 1e9) / 1e6

    correct = rust_correct[doc]
    text, value = rust("llmout_to_string_counted"), rust("llmout")
    logged = rust("llmout_to_string")
    rows = [
        ("llmout (to string, fixes counted)", text, "text", True),
        ("llmout (to string, with repair log)", logged, "text", True),
        ("llmout (to Value, with repair log)", value, "value", True),
        ("jsonrepair 0.1.0 (Rust, to string)", rust("jsonrepair_to_string"), "text", correct["jsonrepair"]),
        ("jsonrepair 0.1.0 (Rust, to Value)", rust("jsonrepair_to_value"), "value", correct["jsonrepair"]),
        ("llm_json 1.0.3 (Rust, to Value)", rust("llm_json_to_value"), "value", correct["llm_json"]),
        (f"json-repair {py_version} (Python, loads)", python[doc]["mbps"], "value", python[doc]["correct"]),
        (f"jsonrepair {npm_version} (npm, + JSON.parse)", npm[doc]["mbps"], "value", npm[doc]["correct"]),
    ]
    print(f"`{doc}`: {size} bytes, {what}.\n")
    print("| implementation | output | MB/s | llmout (same output) is x times faster | output correct |")
    print("|---|---|---:|---:|---|")
    for name, mbps, kind, ok in rows:
        ours = text if kind == "text" else value
        speed = "failed" if mbps is None else f"{mbps:.1f}"
        ratio = "-" if mbps is None or name.startswith("llmout") else f"{ours / mbps:.2f}"
        print(f"| {name} | {kind} | {speed} | {ratio} | {'yes' if ok else 'no'} |")
    peer = rust("jsonrepair_to_string")
    print(f"\nWith llmout's record of every fix besides the text: {logged / peer:.2f}x "
          "the `jsonrepair` crate to string.\n")
