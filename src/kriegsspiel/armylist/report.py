"""Validation results: errors, warnings and info, each naming its selection and the rule's page."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Message:
    severity: Severity
    code: str  # the construction rule's code (rules.yaml)
    text: str
    path: str | None = None  # the selection's path, None for the whole force
    page: str | None = None  # the rule's page in the source

    def __str__(self) -> str:
        where = f"[{self.path}] " if self.path else ""
        page = f" ({self.page})" if self.page else ""
        return f"{self.severity}: {where}{self.text}{page}"


@dataclass
class Report:
    total_pv: int | None
    limit: int | None
    messages: list[Message] = field(default_factory=list)
    totals: dict[str, float] = field(default_factory=dict)

    def of(self, severity: Severity) -> list[Message]:
        return [m for m in self.messages if m.severity == severity]

    @property
    def ok(self) -> bool:
        return not self.of("error")

    def as_dict(self) -> dict:
        def items(sev: Severity) -> list[dict]:
            return [{k: v for k, v in asdict(m).items() if k != "severity"} for m in self.of(sev)]

        return {
            "total_pv": self.total_pv,
            "limit": self.limit,
            "totals": self.totals,
            "errors": items("error"),
            "warnings": items("warning"),
            "info": items("info"),
        }
