"""The batch forms: order, one slot per reply, errors in their slots, threads."""

import pytest

import llmout

REPLIES = [f"Item {i}: {{'id': {i}, 'tags': ['t{i}',], 'ok': {'True' if i % 2 else 'False'}}}" for i in range(500)]
EXPECTED = [{"id": i, "tags": [f"t{i}"], "ok": bool(i % 2)} for i in range(500)]


@pytest.mark.parametrize("threads", [1, 2, 7])
def test_repair_json_many_keeps_order(threads):
    assert llmout.repair_json_many(REPLIES, return_objects=True, threads=threads) == EXPECTED
    assert llmout.repair_json_many(REPLIES, threads=threads) == [llmout.repair_json(r) for r in REPLIES]


def test_one_failing_reply_keeps_its_slot():
    out = llmout.repair_json_many(["[1,", "", b"[2]", None, '"\udc00"', "{'b': 2}"])
    assert out[0] == "[1]"
    assert isinstance(out[1], llmout.LlmoutError) and out[1].kind == "no_json"
    assert isinstance(out[2], TypeError) and "not bytes" in str(out[2])
    assert isinstance(out[3], TypeError) and "not NoneType" in str(out[3])
    assert isinstance(out[4], UnicodeEncodeError)
    assert out[5] == '{"b": 2}'


def test_repair_json_many_ensure_ascii():
    assert llmout.repair_json_many(["['é']"]) == ['["\\u00e9"]']
    assert llmout.repair_json_many(["['é']"], ensure_ascii=False) == ['["é"]']


def test_parse_many():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    out = llmout.parse_many(['{"n": 1}', '{"n": "2"}', '{"n": "two"}', 7], schema, threads=2)
    assert out[0] == llmout.ParseResult({"n": 1}, [], False)
    assert out[1].value == {"n": 2} and out[1].recovered
    assert isinstance(out[2], llmout.LlmoutError)
    assert (out[2].kind, out[2].path, out[2].found) == ("mismatch", "/n", '"two"')
    assert isinstance(out[3], TypeError)


def test_tools_many():
    replies = ['[{"name": "a", "arguments": {"x": 1}}]', "plain", 3.5]
    out = llmout.tools_many(replies, threads=2)
    assert out[0]["tool_calls"] == [{"id": None, "name": "a", "arguments": {"x": 1}}]
    assert out[1] == llmout.tools("plain")
    assert isinstance(out[2], TypeError)


def test_batches_take_any_iterable_and_an_empty_one():
    assert llmout.repair_json_many(iter(["[1]", "[2]"])) == ["[1]", "[2]"]
    assert llmout.repair_json_many([]) == []
    assert llmout.parse_many([], {"type": "object"}) == []
    assert llmout.tools_many(()) == []
    with pytest.raises(TypeError):
        llmout.repair_json_many(5)
    with pytest.raises(TypeError, match="not one str"):
        llmout.repair_json_many("[1, 2]")


def test_thread_count_from_the_environment(monkeypatch):
    monkeypatch.setenv("LLMOUT_THREADS", "3")
    assert llmout.default_threads() == 3
    monkeypatch.delenv("LLMOUT_THREADS")
    assert llmout.default_threads() >= 1
