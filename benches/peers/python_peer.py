"""Times Python's json-repair on the generated documents; prints one JSON object."""
import json
import sys
import time

sys.path.insert(0, sys.argv[1])
import json_repair  # noqa: E402

inputs = sys.argv[2]
expected = json.load(open(f"{inputs}/expected.json", encoding="utf-8"))
results = {}
for doc in ["messy", "messy_common"]:
    text = open(f"{inputs}/{doc}.json", encoding="utf-8").read()
    size = len(text.encode("utf-8"))
    try:
        out = json_repair.loads(text)  # warm-up, and the output checked
    except Exception as e:  # noqa: BLE001 - a peer failing is a result
        results[doc] = {"mbps": None, "correct": False, "error": str(e)[:80]}
        continue
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < 20 and len(times) < 10):
        t = time.perf_counter()
        json_repair.loads(text)
        times.append(time.perf_counter() - t)
    results[doc] = {"mbps": size / min(times) / 1e6, "correct": out == expected}
print(json.dumps(results))
