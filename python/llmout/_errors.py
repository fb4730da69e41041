"""The exception llmout raises, kept apart so that the native module can make it."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


class LlmoutError(ValueError):
    """A reply that cannot be turned into the value asked for, or a schema llmout cannot use.

    ``kind`` is one of ``no_json``, ``syntax``, ``depth_limit``, ``mismatch``, ``ambiguous``,
    ``forbidden``, ``invalid_schema``, ``invalid``, ``too_large``; ``path`` is a JSON pointer (``""`` for the
    whole value); ``expected`` and ``found`` say what was wanted and what was there. For
    ``invalid`` (a value that breaks its schema's constraints) ``violations`` lists every one
    as ``{"path", "keyword", "expected", "found", "message"}``; it is empty otherwise.

    >>> import llmout
    >>> try:
    ...     schema = {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}
    ...     llmout.parse('{"age": "old"}', schema)
    ... except llmout.LlmoutError as e:
    ...     print(e.kind, e.path, e.expected, e.found)
    mismatch /age an integer "old"
    """

    def __init__(
        self,
        message: str,
        kind: str,
        path: str = "",
        expected: str = "",
        found: str = "",
        violations: Optional[List[Dict[str, str]]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.path = path
        self.expected = expected
        self.found = found
        self.violations: List[Dict[str, str]] = list(violations or [])

    def to_dict(self) -> Dict[str, Any]:
        """The error as the ``llmout`` CLI prints it: ``{"kind", "path", "message"}``, and
        ``"violations"`` when there are any."""
        out: Dict[str, Any] = {"kind": self.kind, "path": self.path, "message": self.message}
        if self.violations:
            out["violations"] = self.violations
        return out

    def __reduce__(self) -> Any:
        # Pickled whole (Spark, multiprocessing): the default would pass `message` alone.
        args = (self.message, self.kind, self.path, self.expected, self.found, self.violations)
        return (type(self), args)

    def __repr__(self) -> str:
        return f"LlmoutError(kind={self.kind!r}, path={self.path!r}, message={self.message!r})"
