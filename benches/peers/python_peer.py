"""Times Python's json-repair on the generated messy document; prints one JSON line."""
import json
import sys
import time

sys.path.insert(0, sys.argv[1])
import json_repair  # noqa: E402

inputs = sys.argv[2]
text = open(f"{inputs}/messy.json", encoding="utf-8").read()
expected = json.load(open(f"{inputs}/expected.json", encoding="utf-8"))
size = len(text.encode("utf-8"))

out = json_repair.loads(text)  # warm-up, and the output checked
times = []
start = time.perf_counter()
while len(times) < 3 or (time.perf_counter() - start < 20 and len(times) < 10):
    t = time.perf_counter()
    json_repair.loads(text)
    times.append(time.perf_counter() - t)
best = min(times)
print(json.dumps({"mbps": size / best / 1e6, "correct": out == expected, "runs": len(times)}))
