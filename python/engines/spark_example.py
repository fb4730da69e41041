"""llmout inside Apache Spark: `mapInPandas` over a DataFrame of replies, each batch repaired
by `llmout.repair_json_many` on the executor that holds it.

Spark already runs one task per core, so each task repairs its batch on one thread
(`threads=1`); outside Spark, leave `threads` out to use every core.

Run it (Java and `pip install pyspark pandas pyarrow ./python` first):
`python python/engines/spark_example.py`. On a cluster, see the README's "Python" section
for shipping the llmout wheel to the executors.
"""

from __future__ import annotations

from typing import Iterator

import pandas as pd

OUTPUT_SCHEMA = "id long, reply string, json string, error string"


def repair_batches(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """For `DataFrame.mapInPandas`: each batch with `json` (the repaired JSON, null where
    there is none) and `error` (the error's kind, null where there is none)."""
    import llmout  # imported on the executor

    for batch in batches:
        out = llmout.repair_json_many(batch["reply"].tolist(), ensure_ascii=False, threads=1)
        batch = batch.copy()
        batch["json"] = [None if isinstance(r, BaseException) else r for r in out]
        batch["error"] = [
            getattr(r, "kind", type(r).__name__) if isinstance(r, BaseException) else None
            for r in out
        ]
        yield batch


def repair_frame(df):
    """`df` (columns `id`, `reply`) with `json` and `error` columns."""
    return df.mapInPandas(repair_batches, schema=OUTPUT_SCHEMA)


if __name__ == "__main__":
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").appName("llmout-example").getOrCreate()
    replies = [
        (1, "Sure!\n```json\n{'city': 'Oslo', 'temp_c': -3,}\n```"),
        (2, "{name: 'Ada', langs: ['en', 'fr',]}"),
        (3, ""),
    ]
    df = spark.createDataFrame(replies, "id long, reply string")
    repair_frame(df).show(truncate=False)
    spark.stop()
