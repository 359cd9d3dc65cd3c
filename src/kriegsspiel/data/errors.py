"""Errors raised while loading data and overlay files; each names file, line and field."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class DataIssue:
    """One problem in a data file: where it is and what is wrong."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        field = f" [{self.field}]" if self.field else ""
        return f"{where}{field}: {self.message}"


class DataError(ValueError):
    """A data or overlay file is malformed. Carries every issue found, not only the first."""

    def __init__(self, issues: list[DataIssue]):
        self.issues = issues
        super().__init__("\n".join(str(i) for i in issues))


class NotImplementedRule(NotImplementedError):
    """A rule that the seed describes but the project has not implemented yet."""

    def __init__(self, rule: str, page: str):
        super().__init__(f"not implemented: {rule}, {page}")
        self.rule = rule
        self.page = page


class RuleError(ValueError):
    """A request the rules do not allow (out of range, no gun, forbidden fire), with the reason."""
