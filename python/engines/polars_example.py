"""llmout over a Polars column: `map_batches` hands each batch of replies to
`llmout.repair_json_many`, which repairs them on every core with the GIL released.

Run it: `python python/engines/polars_example.py`.
"""

from __future__ import annotations

import polars as pl

import llmout


REPAIRED = pl.Struct({"json": pl.String, "error": pl.String})


def repair_column(replies: pl.Series) -> pl.Series:
    """For `map_batches`: each reply's repaired JSON (as `json.dumps` writes it) and, where it
    holds none, the error's kind (`no_json`, ...), as a struct `{json, error}`."""
    out = llmout.repair_json_many(replies.to_list(), ensure_ascii=False)
    failed = [isinstance(r, BaseException) for r in out]
    return pl.DataFrame(
        {
            "json": [None if bad else r for r, bad in zip(out, failed)],
            "error": [getattr(r, "kind", type(r).__name__) if bad else None for r, bad in zip(out, failed)],
        },
        schema={"json": pl.String, "error": pl.String},
    ).to_struct("repaired")


def repair_frame(df: pl.DataFrame) -> pl.DataFrame:
    """`df` with `json` and `error` columns beside its `reply` column."""
    return df.with_columns(
        pl.col("reply").map_batches(repair_column, return_dtype=REPAIRED).alias("repaired")
    ).unnest("repaired")


if __name__ == "__main__":
    frame = pl.DataFrame(
        {
            "reply": [
                "Sure!\n```json\n{'city': 'Oslo', 'temp_c': -3,}\n```",
                "{name: 'Ada', langs: ['en', 'fr',]}",
                "",
            ]
        }
    )
    with pl.Config(fmt_str_lengths=60):
        print(repair_frame(frame))
