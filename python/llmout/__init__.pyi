"""Type stubs of the llmout package (see __init__.py for the docs)."""

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Type, Union

from ._errors import LlmoutError as LlmoutError

JSON = Union[Dict[str, Any], List[Any], str, int, float, bool, None]
Warning_ = Dict[str, str]
Policy = Literal["lenient", "no-invent", "strict"]
Schema = Union[Dict[str, Any], bool, Type[Any]]

@dataclass(frozen=True)
class ParseResult:
    value: Any
    warnings: List[Warning_]
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
def loads(text: str, *, skip_json_loads: bool = ...) -> JSON: ...
def repair(text: str) -> Tuple[JSON, List[Warning_]]: ...
def parse(text: str, schema: Schema, *, policy: Policy = ...) -> ParseResult: ...
def tools(text: str, tools: Optional[Sequence[Dict[str, Any]]] = ...) -> Dict[str, Any]: ...
def repair_json_many(
    texts: Sequence[Any],
    *,
    return_objects: bool = ...,
    ensure_ascii: bool = ...,
    threads: Optional[int] = ...,
) -> List[Union[JSON, BaseException]]: ...
def parse_many(
    texts: Sequence[Any],
    schema: Schema,
    *,
    policy: Policy = ...,
    threads: Optional[int] = ...,
) -> List[Union[ParseResult, BaseException]]: ...
def tools_many(
    texts: Sequence[Any],
    tools: Optional[Sequence[Dict[str, Any]]] = ...,
    *,
    threads: Optional[int] = ...,
) -> List[Union[Dict[str, Any], BaseException]]: ...
