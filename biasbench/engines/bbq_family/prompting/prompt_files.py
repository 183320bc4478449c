"""A BBQ-format benchmark's prompt file: string literals and item fields joined by ``+`` (the
format of FilBBQ's ``prompt.txt``), read without being run, rendered per item, hashed for the
signature. Every benchmark of the family keeps its prompt(s) as ``data/prompt_<lang>.txt`` in
this format."""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError

#: Item fields a prompt may reference (``row["context"]`` ...).
PROMPT_FIELDS: frozenset[str] = frozenset({"context", "question", "ans0", "ans1", "ans2"})


@dataclass(frozen=True)
class PromptField:
    """A reference to an item field inside a prompt template."""

    name: str


@dataclass(frozen=True)
class PromptTemplate:
    """A prompt as a sequence of literal texts and item fields, read from ``prompt.txt``."""

    parts: tuple[str | PromptField, ...]
    source: str
    sha256: str
    """sha256 of the prompt file, for a result's signature."""

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(part.name for part in self.parts if isinstance(part, PromptField))

    def render(self, item: BBQItem | Mapping[str, Any]) -> str:
        """The prompt text for one item (a BBQItem or a mapping with the fields)."""
        pieces = []
        for part in self.parts:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(item, Mapping):
                pieces.append(str(item[part.name]))
            else:
                pieces.append(str(getattr(item, part.name)))
        return "".join(pieces)


def _concatenation_terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concatenation_terms(node.left) + _concatenation_terms(node.right)
    return [node]


def parse_prompt_template(
    text: str, source: str = "<prompt>", sha256: str | None = None
) -> PromptTemplate:
    """Parse a prompt written as a Python concatenation of string literals and ``row["field"]``
    look-ups (optionally assigned, ``prompt = (...)``). The file is parsed, never executed: any
    other construct is an error naming the line."""
    try:
        module = ast.parse(text, filename=source, mode="exec")
    except SyntaxError as exc:
        raise InputError(
            f"not a parsable prompt expression ({exc.msg})", file=source, line=exc.lineno
        ) from None
    statements = module.body
    if len(statements) != 1:
        raise InputError(
            f"expected one prompt expression, found {len(statements)} statements",
            file=source,
            line=statements[1].lineno if len(statements) > 1 else None,
        )
    statement = statements[0]
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        expression = statement.value
    elif isinstance(statement, ast.Expr):
        expression = statement.value
    else:
        raise InputError(
            "expected 'prompt = ( ... )' or a bare expression", file=source, line=statement.lineno
        )
    parts: list[str | PromptField] = []
    for term in _concatenation_terms(expression):
        if isinstance(term, ast.Constant) and isinstance(term.value, str):
            if parts and isinstance(parts[-1], str):
                parts[-1] += term.value  # adjacent literals merge
            else:
                parts.append(term.value)
        elif (
            isinstance(term, ast.Subscript)
            and isinstance(term.value, ast.Name)
            and isinstance(term.slice, ast.Constant)
            and isinstance(term.slice.value, str)
        ):
            name = term.slice.value
            if name not in PROMPT_FIELDS:
                raise InputError(
                    f"unknown item field {name!r}; allowed: {', '.join(sorted(PROMPT_FIELDS))}",
                    file=source,
                    line=term.lineno,
                )
            parts.append(PromptField(name))
        else:
            raise InputError(
                f"unsupported prompt term {ast.unparse(term)[:60]!r}; only string "
                "literals and row[\"field\"] joined with '+' are read",
                file=source,
                line=term.lineno,
            )
    used = {part.name for part in parts if isinstance(part, PromptField)}
    absent = sorted(PROMPT_FIELDS - used)
    if absent:
        raise InputError(
            f"the prompt never uses {', '.join(absent)}", file=source, line=statement.lineno
        )
    digest = sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest()
    return PromptTemplate(tuple(parts), source, digest)


def load_prompt_file(path: Path) -> PromptTemplate:
    """Read a prompt written in the format of FilBBQ's ``prompt.txt`` (any BBQ benchmark's
    prompt: string literals and ``row["context"]``-style fields joined by ``+``)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", file=str(path)) from None
    return parse_prompt_template(text, str(path), hashlib.sha256(data).hexdigest())
