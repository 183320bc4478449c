"""User-facing errors: one clear line naming the file, line and field (or the endpoint)."""

from __future__ import annotations


class BiasbenchError(Exception):
    """An error caused by the user's input or environment, shown as one line without a traceback."""


class InputError(BiasbenchError):
    """Bad input data: names the file, the line (1-based) and the field when known."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.file, self.line, self.field, self.reason = file, line, field, message
        where = ""
        if file is not None:
            where = str(file)
            if line is not None:
                where += f":{line}"
            where += ": "
        if field is not None:
            where += f"field '{field}': "
        super().__init__(where + message)


class ModelSpecError(BiasbenchError):
    """A --model value that does not parse or names an unknown backend."""


class EndpointError(BiasbenchError):
    """An endpoint that cannot be reached or keeps failing."""
