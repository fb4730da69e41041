"""The Spark example (spark_example.py) in local mode on two cores: run by run_spark.sh."""

import os
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from replies import engine_rows  # noqa: E402
from spark_example import repair_frame  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The workers run this interpreter, the one llmout and pandas are installed in.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("llmout-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    # The workers import the example as a cluster's would: shipped with the job.
    session.sparkContext.addPyFile(str(Path(__file__).with_name("spark_example.py")))
    yield session
    session.stop()


def test_map_in_pandas_repairs_every_reply(spark):
    rows = engine_rows(2000)
    df = spark.createDataFrame([(i, r) for i, (r, _, _) in enumerate(rows)], "id long, reply string")
    df = df.repartition(4)  # several batches, on both cores
    out = sorted(repair_frame(df).collect(), key=lambda row: row["id"])
    assert [row["id"] for row in out] == list(range(2000))
    assert [row["json"] for row in out] == [j for _, j, _ in rows]
    assert [row["error"] for row in out] == [e for _, _, e in rows]
