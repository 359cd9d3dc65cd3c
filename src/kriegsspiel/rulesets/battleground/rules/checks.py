"""Morale, Skill and Gut Checks, heroes and cowards, rally, squad morale, No Quarter
(digest §3.2-§3.6, §3.21; rulebook chapters Morale, Rally, Squad Morale, Heroes)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from .core import SEVERITY, Rules, check, quality_of

MORALE_OUTCOMES = ("pass", "broken", "hero", "coward")
CHECK_OUTCOMES = ("pass", "fail")
Kind = Literal["fire", "other", "crew"]


@dataclass(frozen=True)
class Check:
    """One figure's (or crew's) check. `mods` are (name, value) pairs; `caused_by_fire` makes
    naturals 1 and 20 heroes and cowards (morale checks only)."""

    morale: int
    mods: tuple[tuple[str, int], ...] = ()
    severity: str = "normal"
    light_wound: bool = False
    team_of_one: bool = False
    caused_by_fire: bool = True
    leadership: int = 0  # leader's modifier (directed action, leader rally)

    def __post_init__(self) -> None:
        if not 1 <= self.morale <= 20:
            raise RuleError(f"morale {self.morale}: must be 1-20")
        if self.severity not in SEVERITY:
            raise RuleError(f"severity {self.severity!r}: expected one of {tuple(SEVERITY)}")


def _modifiers(c: Check, page: str) -> Generator[Any, Any, list[Modifier]]:
    mods = [Modifier(n, v, page) for n, v in c.mods]
    if c.light_wound:
        mods.append(Modifier("light wound", 5, "§3.3"))
    if c.leadership:
        mods.append(Modifier("leadership", c.leadership, "§3.2"))
    yield from mods
    return mods


def _target(rules: Rules, c: Check) -> Generator[Any, Any, int]:
    target = c.morale
    if c.team_of_one:
        target = rules.scale(target, SEVERITY["half"])
        yield Note(f"team of one: half morale {target}", "§3.3")
    if c.severity != "normal":
        target = rules.scale(target, SEVERITY[c.severity])
        yield Note(f"{c.severity} check: target {target}", "§3.3")
    return target


def hero_roll(rules: Rules, table: str = "hero_infantry") -> Generator[Any, Any, Outcome]:
    """Hero creation d20 (§3.3 infantry, §3.23 tank)."""
    roll = yield Roll("1d20", "hero type", table)
    hero = yield from rules.band(table, roll, "hero")
    bonus = yield from rules.band(table, roll, "morale_bonus")
    return Outcome("hero", (("hero", hero), ("morale_bonus", bonus)))


def morale_check(rules: Rules, c: Check) -> Generator[Any, Any, Outcome]:
    """Morale Check (§3.3): fail -> Broken; a check caused by enemy fire makes a natural 1 a
    Hero and a natural 20 a Craven Coward."""
    mods = yield from _modifiers(c, "§3.3")
    target = yield from _target(rules, c)
    ok, nat = yield from check(target, mods, "morale check", "§3.3")
    if c.caused_by_fire and nat == 1:
        return (yield from hero_roll(rules))
    if c.caused_by_fire and nat == 20:
        yield Note("natural 20 on a check caused by fire: Craven Coward, removed", "§3.3")
        return Outcome("coward")
    return Outcome("pass" if ok else "broken")


def skill_check(rules: Rules, c: Check) -> Generator[Any, Any, Outcome]:
    """Skill Check (§3.3): failure wastes the action, never breaks; no heroes or cowards."""
    mods = yield from _modifiers(c, "§3.3")
    target = yield from _target(rules, c)
    ok, _ = yield from check(target, mods, "skill check", "§3.3")
    return Outcome("pass" if ok else "fail")


def gut_check(rules: Rules, c: Check) -> Generator[Any, Any, Outcome]:
    """Gut Check (§3.3): failure means the figure refuses, loses no action, never breaks."""
    mods = yield from _modifiers(c, "§3.3")
    target = yield from _target(rules, c)
    ok, _ = yield from check(target, mods, "gut check", "§3.3")
    return Outcome("pass" if ok else "fail")


@dataclass(frozen=True)
class Rally:
    morale: int
    mode: Literal["self", "leader"] = "self"
    leadership: int = 0
    mods: tuple[tuple[str, int], ...] = ()
    light_wound: bool = False


def rally(rules: Rules, r: Rally) -> Generator[Any, Any, Outcome]:
    """Rally Phase (§3.5). Self Rally: d20 <= half of (morale - mods), halved after the
    modifiers. Leader Rally: d20 + mods + leadership <= morale. Naturals mean nothing."""
    mods = [Modifier(n, v, "§3.5") for n, v in r.mods]
    if r.light_wound:
        mods.append(Modifier("light wound", 5, "§3.3"))
    yield from mods
    total = sum(m.value for m in mods)
    if r.mode == "self":
        target = rules.scale(r.morale - total, SEVERITY["half"])
        yield Note(f"self rally: half of ({r.morale} - {total}) = {target}", "§3.5")
        ok, _ = yield from check(target, [], "self rally", "§3.5")
    else:
        lead = Modifier("leadership", r.leadership, "§3.2")
        yield lead
        ok, _ = yield from check(r.morale, [*mods, lead], "leader rally", "§3.5")
    return Outcome("rallied" if ok else "broken")


@dataclass(frozen=True)
class Squad:
    size: int
    disabled: int
    quality: str = "regular"
    leader_morale: int | None = None  # highest surviving leader's morale (else the quality's)
    mods: tuple[tuple[str, int], ...] = ()
    ripple: bool = False  # friendly figures breaking nearby force the check (§3.6)


SQUAD_OUTCOMES = ("no_check", "holds", "breaks", "fanatic", "cowards")


def squad_morale(rules: Rules, s: Squad) -> Generator[Any, Any, Outcome]:
    """Squad/team morale in the Rally Phase (§3.6): at the Break Point one d20 against the best
    leader's morale; fail -> all Break, natural 1 -> all Fanatic, natural 20 -> all Cowards."""
    q = quality_of(s.quality)
    if not 0 <= s.disabled <= s.size:
        raise RuleError(f"disabled {s.disabled}: must be 0-{s.size}")
    pct = yield from rules.get("troop_quality", q, "break_pct")
    exact = s.size * pct / 100
    need = int(exact) if rules.opts.break_point == "down" or exact == int(exact) else int(exact) + 1
    yield Note(f"break point {pct}% of {s.size} = {need} disabled", "§3.6")
    if s.disabled < need and not s.ripple:
        return Outcome("no_check")
    morale = s.leader_morale or (yield from rules.get("troop_quality", q, "leader_morale"))
    mods = [Modifier(n, v, "§3.6") for n, v in s.mods]
    yield from mods
    ok, nat = yield from check(morale, mods, "squad morale", "§3.6")
    if nat == 1:
        return Outcome("fanatic")
    if nat == 20:
        return Outcome("cowards")
    return Outcome("holds" if ok else "breaks")


def no_quarter(
    rules: Rules, nationality: str, whose: str, morale: int, versus: str = ""
) -> Generator[Any, Any, Outcome]:
    """No Quarter (§3.4): a check to gun down surrendering men, against the whole or half
    morale by nationality and whose men they are; '+4' read per decision BG-NQ."""
    frac = yield from rules.get("no_quarter", nationality, whose)
    if frac is None:
        yield Note(f"{nationality}: not applicable to {whose} men", "§3.4")
        return Outcome("refuses")
    target = morale if frac == "full" else rules.scale(morale, SEVERITY["half"])
    mods: list[Modifier] = []
    bonus_vs = yield from rules.get("no_quarter", nationality, "bonus_vs")
    if bonus_vs and versus.casefold() == bonus_vs:
        bonus = yield from rules.get("no_quarter", nationality, "bonus")
        if rules.opts.no_quarter_bonus == "morale":
            target += bonus
        else:
            mods.append(Modifier(f"vs {versus}", -bonus, "§3.4"))
    ok, _ = yield from check(target, mods, "no quarter", "§3.4")
    return Outcome("fires" if ok else "refuses")
