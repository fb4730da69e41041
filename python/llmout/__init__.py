"""Turn the raw text an LLM returns into JSON, schema-checked values and tool calls.

The work is done by the llmout Rust library, with the GIL released; the batch forms
(``repair_json_many``, ``parse_many``, ``tools_many``) run the replies on every core.

>>> import llmout
>>> llmout.repair_json("Sure!\\n```json\\n{'name': 'Ada', tags: ['x',],}\\n```")
'{"name": "Ada", "tags": ["x"]}'
>>> llmout.loads("{'ok': True, 'n': None")
{'ok': True, 'n': None}

``repair_json`` and ``loads`` take the arguments of the ``json_repair`` package's functions of
the same names and give the same kind of result, so switching is one import line::

    import llmout as json_repair
"""

from __future__ import annotations

import json as _json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _native
from ._errors import LlmoutError

__all__ = [
    "LlmoutError",
    "ParseResult",
    "default_threads",
    "loads",
    "parse",
    "parse_many",
    "repair",
    "repair_json",
    "repair_json_many",
    "tools",
    "tools_many",
]


@dataclass(frozen=True)
class ParseResult:
    """What ``parse`` gives: the value, what was changed to get it, and whether anything was.

    ``value`` is JSON data (``dict``, ``list``, ``str``, ...), or an instance of the Pydantic
    model given as the schema. ``warnings`` is a list of ``{"kind", "path", "message"}``, one
    a change; ``recovered`` is true when any change was made to what the model wrote (a
    markdown fence around valid JSON is no change).

    >>> r = parse('{"n": "3"}', {"type": "object", "properties": {"n": {"type": "integer"}}})
    >>> r.value, r.recovered, [w["kind"] for w in r.warnings]
    ({'n': 3}, True, ['coerced'])
    """

    value: Any
    warnings: List[Dict[str, str]]
    recovered: bool


def default_threads() -> int:
    """The threads a batch runs on when ``threads`` is not given: the environment variable
    ``LLMOUT_THREADS`` when set, else one per core."""
    return _native.default_threads()


def repair_json(
    text: str,
    *,
    return_objects: bool = False,
    skip_json_loads: bool = False,
    ensure_ascii: bool = True,
    **json_dumps_args: Any,
) -> Any:
    """Repairs the JSON in an LLM reply, as ``json_repair.repair_json`` does.

    Returns the JSON as ``json.dumps`` writes it (``ensure_ascii`` and any other keyword,
    e.g. ``indent``, are ``json.dumps``'s), or with ``return_objects=True`` the value itself.
    A reply with nothing to repair (empty, whitespace, only brackets) gives ``""``, as
    ``json_repair`` does. ``skip_json_loads`` is accepted for compatibility; llmout checks for
    valid JSON in Rust either way. A reply that is no ``str`` raises ``TypeError``; a ``str``
    with lone surrogates raises ``UnicodeEncodeError``.

    >>> repair_json("{'a': 1.50, b: 'é',}")
    '{"a": 1.5, "b": "\\\\u00e9"}'
    >>> repair_json("{'a': 1.50, b: 'é',}", ensure_ascii=False)
    '{"a": 1.5, "b": "é"}'
    >>> repair_json("[1, 2", return_objects=True)
    [1, 2]
    >>> repair_json("")
    ''
    """
    del skip_json_loads
    try:
        text_out = _native.repair_json(text, ensure_ascii and not return_objects)
    except LlmoutError:
        return ""
    if return_objects:
        return _json.loads(text_out)
    if json_dumps_args:
        return _json.dumps(_json.loads(text_out), ensure_ascii=ensure_ascii, **json_dumps_args)
    return text_out


def loads(text: str, *, skip_json_loads: bool = False) -> Any:
    """Repairs the JSON in an LLM reply and returns its value, as ``json_repair.loads`` does
    (``""`` when there is nothing to repair).

    >>> loads("Here you go: {'done': True, 'items': [1, 2,]}")
    {'done': True, 'items': [1, 2]}
    """
    return repair_json(text, return_objects=True, skip_json_loads=skip_json_loads)


def repair(text: str) -> "tuple[Any, List[Dict[str, str]]]":
    """The value of the JSON in a reply and what was changed to get it:
    ``(value, [{"kind", "path", "message"}, ...])``. Raises ``LlmoutError`` (kind ``no_json``,
    ``syntax`` or ``depth_limit``) when there is none.

    >>> value, warnings = repair("{'a': [1, 2,]}")
    >>> value
    {'a': [1, 2]}
    >>> [(w["kind"], w["path"]) for w in warnings]
    [('repaired', ''), ('repaired', '/a')]
    """
    return _native.repair(text)


def _schema_of(schema: Any) -> "tuple[str, Any]":
    """The schema as JSON text, and the Pydantic model to validate into (or ``None``)."""
    if isinstance(schema, type) and hasattr(schema, "model_json_schema"):
        return _json.dumps(schema.model_json_schema()), schema
    if isinstance(schema, (dict, bool)):
        return _json.dumps(schema), None
    raise TypeError(
        "schema must be a JSON-schema dict or a Pydantic model class, "
        f"not {type(schema).__name__}"
    )


def _result(parsed: Any, model: Any) -> Any:
    """A native ``(value, warnings, recovered)`` as a ``ParseResult``, the value validated
    into ``model`` when there is one; an exception (a batch slot's) is returned as it is."""
    if isinstance(parsed, BaseException):
        return parsed
    value, warnings, recovered = parsed
    if model is not None:
        value = model.model_validate(value)
    return ParseResult(value, warnings, recovered)


def parse(text: str, schema: Any, *, policy: str = "lenient") -> ParseResult:
    """Recovers a reply against a schema: a JSON-schema ``dict`` or a Pydantic model class
    (its ``model_json_schema()``; the value is then validated into an instance).

    ``policy`` is ``"lenient"`` (fill in what is missing, with a warning), ``"no-invent"``
    (reinterpret what the model wrote, but a missing value is an error) or ``"strict"`` (any
    recovery is an error). Raises ``LlmoutError`` with ``kind``, ``path``, ``expected`` and
    ``found`` when the reply cannot be recovered (``violations`` for ``invalid``), or when the
    schema is not one llmout can use (kind ``invalid_schema``); ``TypeError`` when ``schema``
    is neither a dict nor a model.

    >>> schema = {"type": "object", "properties": {"status": {"enum": ["pass", "fail"]}},
    ...           "required": ["status"]}
    >>> parse('Result: {"Status": "PASSED"}', schema).value
    {'status': 'pass'}
    """
    schema_json, model = _schema_of(schema)
    return _result(_native.parse(text, schema_json, policy), model)


def _tools_json(tools: Optional[Sequence[Dict[str, Any]]]) -> Optional[str]:
    """Tool definitions as JSON text; OpenAI's ``{"type": "function", "function": {...}}``
    entries are unwrapped."""
    if tools is None:
        return None
    return _json.dumps(
        [t["function"] if t.get("type") == "function" and "function" in t else t for t in tools]
    )


def tools(text: str, tools: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """The tool calls in a reply, in any of the ~40 formats llmout reads, as the ``llmout tools``
    CLI prints them: ``{"content", "tool_calls", "needs_more_work", "warnings"}``, each call
    ``{"id", "name", "arguments"}`` and ``"error"`` where its arguments could not be recovered
    against its tool's schema.

    ``tools``: definitions ``{"name", "parameters"}`` (``input_schema`` and OpenAI's
    ``{"type": "function", "function": {...}}`` are read too); arguments are then recovered
    against each tool's schema.

    >>> r = tools('<tool_call>{"name": "ls", "arguments": {"path": "/tmp"}}</tool_call>')
    >>> r["tool_calls"]
    [{'id': None, 'name': 'ls', 'arguments': {'path': '/tmp'}}]
    """
    return _native.tools(text, _tools_json(tools))


def repair_json_many(
    texts: Sequence[str],
    *,
    return_objects: bool = False,
    ensure_ascii: bool = True,
    threads: Optional[int] = None,
) -> List[Any]:
    """``repair_json`` over many replies, on ``threads`` threads (default:
    ``default_threads()``), with the GIL released. The results are in the replies' order; a
    reply that fails gives its exception instance in its slot (``LlmoutError`` when it holds no
    JSON, ``TypeError`` when it is no ``str``), so one bad reply never fails the batch.

    >>> repair_json_many(["{'a': 1}", "", 3])
    ['{"a": 1}', LlmoutError(kind='no_json', path='', message='expected a JSON value, found empty input'), TypeError('a reply must be a str, not int')]
    """
    out = _native.repair_json_many(texts, ensure_ascii and not return_objects, threads)
    if return_objects:
        out = [r if isinstance(r, BaseException) else _json.loads(r) for r in out]
    return out


def parse_many(
    texts: Sequence[str],
    schema: Any,
    *,
    policy: str = "lenient",
    threads: Optional[int] = None,
) -> List[Union[ParseResult, BaseException]]:
    """``parse`` over many replies, the schema compiled once; each slot a ``ParseResult`` or
    the exception of that reply (a Pydantic ``ValidationError`` included). A schema that is not
    one raises at once: it concerns every reply.

    >>> schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    >>> [r.value for r in parse_many(['{"n": 1}', "n is 2: {n: 2}"], schema)]
    [{'n': 1}, {'n': 2}]
    """
    schema_json, model = _schema_of(schema)
    out = _native.parse_many(texts, schema_json, policy, threads)
    results: List[Union[ParseResult, BaseException]] = []
    for parsed in out:
        try:
            results.append(_result(parsed, model))
        except Exception as e:  # noqa: BLE001 - the model's own error, in its slot
            results.append(e)
    return results


def tools_many(
    texts: Sequence[str],
    tools: Optional[Sequence[Dict[str, Any]]] = None,
    *,
    threads: Optional[int] = None,
) -> List[Union[Dict[str, Any], BaseException]]:
    """``tools`` over many replies; each slot the envelope ``tools`` returns, or the exception
    of that reply.

    >>> [len(r["tool_calls"]) for r in tools_many(["no calls here", '{"name": "f", "arguments": {}}'])]
    [0, 1]
    """
    return _native.tools_many(texts, _tools_json(tools), threads)
