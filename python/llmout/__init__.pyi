"""Type stubs of the llmout package (see __init__.py for the docs)."""

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Type, Union

from ._errors import LlmoutError as LlmoutError

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

_JSON = Union[Dict[str, Any], List[Any], str, int, float, bool, None]
_Warning = Dict[str, str]
_Policy = Literal["lenient", "no-invent", "strict"]
_Schema = Union[Dict[str, Any], bool, Type[Any]]

@dataclass(frozen=True)
class ParseResult:
    value: Any
    warnings: List[_Warning]
    recovered: bool

def default_threads() -> int: ...
def repair_json(
    text: str,
    *,
    return_objects: bool = ...,
    skip_json_loads: bool = ...,
    ensure_ascii: bool = ...,
    **json_dumps_args: Any,
) -> Any: ...
def loads(text: str, *, skip_json_loads: bool = ...) -> _JSON: ...
def repair(text: str) -> Tuple[_JSON, List[_Warning]]: ...
def parse(text: str, schema: _Schema, *, policy: _Policy = ...) -> ParseResult: ...
def tools(text: str, tools: Optional[Sequence[Dict[str, Any]]] = ...) -> Dict[str, Any]: ...
def repair_json_many(
    texts: Sequence[Any],
    *,
    return_objects: bool = ...,
    ensure_ascii: bool = ...,
    threads: Optional[int] = ...,
) -> List[Union[_JSON, BaseException]]: ...
def parse_many(
    texts: Sequence[Any],
    schema: _Schema,
    *,
    policy: _Policy = ...,
    threads: Optional[int] = ...,
) -> List[Union[ParseResult, BaseException]]: ...
def tools_many(
    texts: Sequence[Any],
    tools: Optional[Sequence[Dict[str, Any]]] = ...,
    *,
    threads: Optional[int] = ...,
) -> List[Union[Dict[str, Any], BaseException]]: ...
