"""The Polars example (python/engines/polars_example.py) on a column of replies."""

import sys
from pathlib import Path

import pytest

pl = pytest.importorskip("polars")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engines"))

from polars_example import repair_frame  # noqa: E402
from replies import engine_rows  # noqa: E402


def test_polars_map_batches_repairs_every_reply():
    rows = engine_rows(3000)
    df = pl.DataFrame({"reply": [r for r, _, _ in rows]})
    out = repair_frame(df)
    assert out.columns == ["reply", "json", "error"]
    assert out["json"].to_list() == [j for _, j, _ in rows]
    assert out["error"].to_list() == [e for _, _, e in rows]
    assert out["error"].null_count() == 3000 - 429  # 429 empty replies (i % 7 == 3)
