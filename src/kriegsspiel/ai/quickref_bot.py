"""A quickref bot after MegaMek's Princess: enumerate candidate commands from the legal
templates, rank them with the profile's weights, give the best; every decision is traced.

- fire: expected effect from the exact odds (outcome value x target value), suppressive fire
  weighted apart; a shot worth less than `min_fire` is not taken (firing reveals the firer);
- artillery: calls fire on the observed enemy cluster of most value, never danger close;
- movement: destinations around each unit scored by objective progress, cover of the
  destination (terrain chart SA/AT), enemies that would see it and enemies it would give a
  shot at; suppressed units only withdraw (away from every observed enemy, into cover);
- close assault: when in contact and the strength ratio is favourable.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..data.errors import RuleError
from ..engine.commands import IllegalCommand
from .bot import Decision, Odds, command_of
from .profiles import Profile, load_profile
from .terrain import ViewTerrain

DIRECTIONS = 12
SIGHT = 40.0  # inches: beyond this an enemy is not counted as seeing or being seen
RANGE = {"vehicle": 32.0, "infantry": 20.0}
CONTACT = 1.8  # inches: inside the rules' base contact (2") for an assault next phase
Option = tuple[float, dict[str, Any], str]  # score, command, why


class QuickrefBot:
    """The competent quickref bot. Keeps only per-phase memory (units already moved)."""

    def __init__(self, profile: Profile | str = "balanced"):
        self.profile = load_profile(profile) if isinstance(profile, str) else profile
        self._terrain: tuple[str, ViewTerrain] | None = None
        self._moved: dict[tuple[int, str], set[str]] = {}
        self._odds: dict[str, dict[str, Any]] = {}
        self._grounds: dict[tuple, tuple[float, str]] = {}
        self._dests: dict[tuple, list[tuple[tuple, float]]] = {}
        self._enemy_key = ""

    # ------------------------------------------------------------------ entry point
    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision:
        enemies = json.dumps(self._known_enemies(view), sort_keys=True)
        if enemies != self._enemy_key:
            self._enemy_key, self._grounds, self._dests = enemies, {}, {}
        options: list[Option] = []
        for t in legal:
            options += self._score(view, t, legal, odds)
        best = max(options, key=lambda o: o[0])
        if best[1]["type"] == "move":
            self._moved.setdefault((view["turn"], view["phase"]), set()).add(best[1]["unit"])
        ranked = sorted(options, key=lambda o: -o[0])
        trace = {
            "phase": view["phase"],
            "turn": view["turn"],
            "profile": self.profile.name,
            "chosen": {"command": best[1], "score": round(best[0], 4), "why": best[2]},
            "alternatives": [
                {"command": c, "score": round(s, 4), "why": w} for s, c, w in ranked[1:9]
            ],
            "considered": len(options),
        }
        return Decision(best[1], trace)

    def _score(self, view, t: dict[str, Any], legal, odds: Odds) -> list[Option]:
        kind = t["type"]
        if kind == "end_phase":
            return [(0.0, {"type": "end_phase"}, "nothing scores above ending the phase")]
        if kind == "fire":
            return [self._fire(view, t, odds)]
        if kind == "move":
            return self._moves(view, t)
        if kind == "call_fire":
            return [self._call_fire(view, t)]
        if kind == "assault":
            return [self._assault(view, t)]
        if kind == "initiative":
            me = view["you"]
            want = t["side_a"] == me if self.profile.side_a else t["side_a"] != me
            return [(1.0 if want else -1.0, command_of(t), "initiative choice from profile")]
        if kind == "dismount":
            near = self._nearest_enemy(view, self._unit(view, t["unit"]))
            return [(0.5 if near < 16 else -0.1, command_of(t), f'nearest enemy {near:.0f}"')]
        return [(-1.0, command_of(t), f"{kind}: not used by this bot")]

    # ------------------------------------------------------------------ helpers
    def terrain(self, view) -> ViewTerrain:
        key = view.get("game", {}).get("scenario") or json.dumps(view["terrain"], sort_keys=True)
        if self._terrain is None or self._terrain[0] != key:
            self._terrain = (key, ViewTerrain(view["terrain"]))
        return self._terrain[1]

    @staticmethod
    def _unit(view, uid: str) -> dict[str, Any]:
        return next(u for u in view["units"] if u["id"] == uid)

    @staticmethod
    def _enemy(view, uid: str) -> dict[str, Any] | None:
        return next((e for e in view["enemies"] if e["id"] == uid), None)

    @staticmethod
    def _known_enemies(view) -> list[dict[str, Any]]:
        return list(view["enemies"]) + list(view["last_known"])

    def _nearest_enemy(self, view, u, pos=None) -> float:
        p = pos or (u["x"], u["y"])
        return min(
            (math.dist(p, (e["x"], e["y"])) for e in self._known_enemies(view)), default=99.0
        )

    def _value(self, target: dict[str, Any] | None, view=None) -> float:
        """A target's worth: by kind, more when it stands on an objective."""
        tv = self.profile.target_value
        if target is None:
            return tv.get("infantry", 1.0)
        if target.get("type", "").split("/")[-1].startswith("pak"):
            base = tv.get("gun", 1.0)
        else:
            base = tv.get(target.get("kind", "infantry"), 1.0)
        if view and self._on_objective(view, (target["x"], target["y"])):
            base *= self.profile.objective_target
        return base

    @staticmethod
    def _on_objective(view, pos) -> bool:
        return any(
            math.dist(pos, (o["x"], o["y"])) <= o["radius"] + 0.5 for o in view["objectives"]
        )

    # ------------------------------------------------------------------ fire
    def _fire(self, view, t, odds: Odds) -> Option:
        cmd = command_of(t)
        target = self._enemy(view, cmd["target"])
        state = {k: target.get(k) for k in ("suppressed", "damaged", "stands", "x", "y")}
        key = json.dumps([view["turn"], view["phase"], cmd, state], sort_keys=True)
        if key not in self._odds:
            try:
                self._odds[key] = odds(cmd)
            except (IllegalCommand, RuleError) as exc:
                return -1.0, cmd, f"odds refused: {exc}"
        result = self._odds[key]
        ov = self.profile.outcome_value
        expected = sum(p * ov.get(name, 0.0) for name, p in result["outcomes"].items())
        score = expected * self._value(target, view)
        if cmd.get("suppressive"):
            score *= self.profile.suppressive
        if score < self.profile.min_fire:
            score = -0.01
        best = max(result["outcomes"].items(), key=lambda kv: kv[1] * ov.get(kv[0], 0))
        why = (
            f"{result['attack']} at {cmd['target']}: expected value {expected:.3f} x target "
            f"{self._value(target, view):g}; best chance {best[0]} {best[1]:.0%}"
        )
        return score, cmd, why

    # ------------------------------------------------------------------ artillery
    def _call_fire(self, view, t) -> Option:
        cmd = command_of(t)
        p = self.profile
        at = (t["x"], t["y"])
        if any(math.dist(at, (u["x"], u["y"])) < p.arty_danger_close for u in view["units"]):
            return -1.0, cmd, "danger close to own units"
        near = [e for e in view["enemies"] if math.dist(at, (e["x"], e["y"])) <= 3.0]
        value = sum(self._value(e) * (0.4 if e["kind"] == "vehicle" else 1.0) for e in near)
        return p.artillery * value * 0.5, cmd, f'{len(near)} observed enemies within 3"'

    # ------------------------------------------------------------------ assault
    @staticmethod
    def _strength(u: dict[str, Any]) -> float:
        s = (u.get("stands") or 1) + (1 if u.get("attached_mg") else 0)
        return s * (0.5 if u.get("suppressed") else 1.0)

    def _assault(self, view, t) -> Option:
        cmd = command_of(t)
        u, target = self._unit(view, cmd["unit"]), self._enemy(view, cmd["target"])
        if target is None:
            return -1.0, cmd, "target not observed"
        if u.get("suppressed"):
            return -1.0, cmd, "suppressed: no assault"
        if target["kind"] == "vehicle":
            ratio = 1.0 if target.get("buttoned") else 0.6
        else:
            ratio = self._strength(u) / max(self._strength(target), 0.5)
        if ratio < self.profile.assault_min_ratio:
            return -0.5, cmd, f"strength ratio {ratio:.2f} below {self.profile.assault_min_ratio}"
        score = self.profile.assault * 0.4 * ratio * self._value(target, view)
        return score, cmd, f"in contact, strength ratio {ratio:.2f}"

    # ------------------------------------------------------------------ movement
    def _position(self, view, u, pos: tuple[float, float], withdraw: bool) -> tuple[float, str]:
        """Score of standing at `pos` for unit `u`, with the terms that make it up."""
        score, why = self._ground(view, u, pos, withdraw)
        crowd = sum(
            1
            for o in view["units"]
            if o["id"] != u["id"] and math.dist(pos, (o["x"], o["y"])) < 2.0
        )
        return score - self.profile.spread * crowd, f'{why}, {crowd} friends within 2"'

    def _ground(self, view, u, pos: tuple[float, float], withdraw: bool) -> tuple[float, str]:
        """The terms of a position's score that do not depend on friendly units (memoised for
        the phase while the known enemies stay the same)."""
        key = (view["turn"], view["phase"], u["kind"], u["type"], pos, withdraw, self._enemy_key)
        if key in self._grounds:
            return self._grounds[key]
        p, terrain = self.profile, self.terrain(view)
        vehicle = u["kind"] == "vehicle"
        cover = terrain.cover(*pos, vehicle)
        seeing = shots = 0
        for e in self._known_enemies(view):
            d = math.dist(pos, (e["x"], e["y"]))
            if d > SIGHT or not terrain.los(pos, (e["x"], e["y"])):
                continue
            seeing += 1
            shots += d <= RANGE[u["kind"]]
        score = p.cover * cover - p.exposure * seeing
        if not vehicle and not withdraw and not u.get("suppressed"):
            for e in view["enemies"]:
                if (
                    e["kind"] == "infantry"
                    and self._on_objective(view, (e["x"], e["y"]))
                    and math.dist(pos, (e["x"], e["y"])) <= CONTACT
                    and self._strength(u) / max(self._strength(e), 0.5) >= p.assault_min_ratio
                ):
                    score += p.assault * p.close_in
                    break
        if withdraw:
            score += p.withdraw * min(self._nearest_enemy(view, u, pos), 24.0)
            out = score, f"withdraw; cover {cover}, seen by {seeing}"
        else:
            obj = -math.inf if view["objectives"] else 0.0
            w, h = view["table"]["width"], view["table"]["depth"]
            for o in view["objectives"]:
                goal = (o["x"], o["y"])
                d = math.dist(pos, goal)
                if d > o["radius"]:
                    d = max(d, terrain.path_distance(pos, goal, w, h, vehicle))
                here = p.hold_bonus if d <= o["radius"] * 0.8 else 0.0
                late = (view["turn"] / view.get("turn_limit", 8)) ** p.urgency_power
                pull = p.objective * (p.urgency + p.urgency_scale * late)
                obj = max(obj, here - pull * max(0.0, d - o["radius"] * 0.5))
            score += obj + p.shooting * shots
            out = score, f"objective {obj:.1f}, cover {cover}, seen by {seeing}, shots {shots}"
        self._grounds[key] = out
        return out

    def _moves(self, view, t) -> list[Option]:
        uid = t["unit"]
        if uid in self._moved.get((view["turn"], view["phase"]), set()):
            return []
        u = self._unit(view, uid)
        here = (u["x"], u["y"])
        withdraw = bool(t.get("withdraw_only"))
        now, _ = self._position(view, u, here, withdraw)
        out: list[Option] = []
        for pos, d in self._destinations(view, u, t["max"], withdraw):
            score, why = self._position(view, u, pos, withdraw)
            cmd = {"type": "move", "unit": uid, "path": [[round(pos[0], 3), round(pos[1], 3)]]}
            gain = score - now - self.profile.move_threshold
            out.append((gain, cmd, f'{d:.1f}" to ({pos[0]:.1f}, {pos[1]:.1f}): {why}'))
        return out

    def _destinations(self, view, u, cap: float, withdraw: bool) -> list[tuple[tuple, float]]:
        """Points this unit can reach now: around it, full and half distance, and straight
        towards each objective (memoised for the phase)."""
        here = (u["x"], u["y"])
        key = (view["turn"], view["phase"], u["id"], here, cap, withdraw, self._enemy_key)
        if key in self._dests:
            return self._dests[key]
        terrain = self.terrain(view)
        w, h = view["table"]["width"], view["table"]["depth"]
        vehicle = u["kind"] == "vehicle"
        moved = u.get("moved_this_turn", 0.0)
        heads = [2 * math.pi * i / DIRECTIONS for i in range(DIRECTIONS)]
        heads += [math.atan2(o["x"] - u["x"], o["y"] - u["y"]) for o in view["objectives"]]
        out = []
        for a in heads:
            far = (
                min(max(u["x"] + cap * math.sin(a), 0.0), w),
                min(max(u["y"] + cap * math.cos(a), 0.0), h),
            )
            reach = terrain.reach(here, far, vehicle, cap, moved)
            length = math.dist(here, far)
            for frac in (1.0, 0.5):
                d = reach * frac
                if d < 0.3:
                    continue
                pos = (
                    here[0] + (far[0] - here[0]) * d / length,
                    here[1] + (far[1] - here[1]) * d / length,
                )
                if withdraw and any(
                    math.dist(pos, (e["x"], e["y"])) < math.dist(here, (e["x"], e["y"]))
                    for e in view["enemies"]
                ):
                    continue
                out.append((pos, d))
        self._dests[key] = out
        return out
