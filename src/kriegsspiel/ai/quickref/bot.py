"""A quickref bot after MegaMek's Princess: enumerate candidate commands from the legal
templates, rank them with the profile's weights, give the best; every decision is traced.

- fire: expected effect from the exact odds (outcome value x target value x the chance that
  the target still stands after this step's earlier shots), suppressive fire weighted apart; a
  shot worth less than `min_fire` is not taken (firing reveals the firer);
- artillery: calls fire on the observed enemy cluster of most value, never danger close;
- movement: destinations around each unit and routes round closed ground towards each
  objective, scored by objective progress, cover of the destination (terrain chart SA/AT),
  enemies that would see it and enemies it would give a shot at, and for vehicles the exact
  exchange of shots there (`exchange.VehicleExchange`); vehicles wait a move out of an
  objective until the last turn; suppressed units only withdraw (away from every observed
  enemy, into cover);
- close assault: when in contact and the strength ratio is favourable; infantry may step into
  contact with enemies holding an objective.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import OrderedDict
from typing import Any

import numpy as np

from ...data.errors import RuleError
from ...engine.commands import IllegalCommand
from ..bot import Decision, Odds, hints_for
from ..bot import command_of as _command_of
from .exchange import Sight, VehicleExchange
from .plan import CONTACT, MOVED, Ground, Pass, Plan, Reach, destinations, moved_states
from .profiles import Profile, load_profile
from .shot_odds import ShotOdds
from .terrain import ViewTerrain, view_terrain

HINTS = hints_for("quickref")  # the keys of quickref's templates that are not commands


def command_of(template: dict[str, Any]) -> dict[str, Any]:
    return _command_of(template, HINTS)


RANKED = 9  # options a decision ranks and traces (the chosen one and the next best)
PLANS_KEPT = 128  # batches of plans memoised in a process (the least recently used go)
_PLANS: OrderedDict[tuple, list[Plan]] = OrderedDict()
RANGE = {"vehicle": 32.0, "infantry": 20.0}
KILLS = ("ko", "kia", "removed")  # fire outcomes that take the target off the table
# score, command, why (words, or a function that writes them); a move's is (score, Plan,
# (destination, friends within 2")) until ranked
Option = tuple[float, "dict[str, Any] | Plan", Any]


class QuickrefBot(VehicleExchange):
    """The competent quickref bot. Keeps only per-phase memory (units already moved)."""

    def __init__(self, profile: Profile | str = "balanced"):
        self.profile = load_profile(profile) if isinstance(profile, str) else profile
        self._profile_key = repr(self.profile)  # all its weights: part of the plan memo's key
        self._terrain: tuple[str, ViewTerrain] | None = None
        self._moved: dict[tuple[int, str], set[str]] = {}
        self._odds: dict[tuple, dict[str, Any]] = {}
        self._share_memo: dict[str, dict[str, int]] = {}  # own unit -> shares of enemy shots
        self._scouted: set[str] = set()  # concealing terrain looked into (or an enemy seen in)
        self._looked: tuple[set, set] = (set(), set())  # places looked from, enemies seen at
        self._enemy_types: set[str] = set()  # vehicle types of the enemy seen so far
        self._enemy_key: tuple = ()
        self._known: tuple[list, list] = ([], [])  # copies of the last view's enemies, last known
        self._phase: tuple[int, str] = (0, "")
        self._plans: dict[tuple, Plan] = {}  # move plans by `_plan_key`
        self._unlisted = 0  # this decision's move options below the best RANKED moves
        self._move_options: dict[int, list[Option]] = {}  # this decision's, by template id
        self._units: tuple[Any, tuple[dict, dict]] = (None, ({}, {}))  # view: units, enemies
        self._holding: list[dict[str, Any]] = []
        # (x, y, reach) of each objective, and positions on one of them or not
        self._on_objectives: tuple[tuple, dict[tuple[float, float], bool]] = ((), {})
        self._friends: list[tuple[str, tuple[float, float]]] = []
        self._standing: dict[tuple, float] = {}  # (turn, step, target) -> P(still standing)
        self._shot_odds: dict[tuple, dict[str, Any]] = {}  # this decision's odds by command
        self.shots = ShotOdds(self.profile.outcome_value)

    # ------------------------------------------------------------------ entry point
    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision:
        objectives = tuple((o["x"], o["y"], o["radius"] + 0.5) for o in view["objectives"])
        if objectives != self._on_objectives[0]:
            self._on_objectives = (objectives, {})
        # the enemy picture: compared with the last decision's as dicts, keyed only when new
        fresh = (view["enemies"], view["last_known"]) != self._known
        if fresh:
            self._known = (
                [dict(e) for e in view["enemies"]],
                [dict(e) for e in view["last_known"]],
            )
            enemies = tuple(_facts(e) for e in self._known_enemies(view))
        phase = (view["turn"], view["phase"])
        if (fresh and enemies != self._enemy_key) or phase != self._phase:
            self._enemy_key, self._phase = (enemies if fresh else self._enemy_key), phase
            self._plans = {}
            # observed enemy infantry standing on an objective (close-in targets)
            self._holding = [
                e
                for e in view["enemies"]
                if e["kind"] == "infantry" and self._on_objective((e["x"], e["y"]))
            ]
        self._watch = None  # worked out when a vehicle's exchange first needs it
        self._share_memo = {}
        self._friends = [(o["id"], (o["x"], o["y"])) for o in view["units"]]
        self._scout(view, fresh)
        # the units that may still move this step (not moved this phase yet): their templates
        # and plan keys
        moved = self._moved.get(phase, ())
        moving = {
            id(t): (t, self._plan_key(view, t))
            for t in legal
            if t["type"] == "move" and t["unit"] not in moved
        }
        self._plan_all(view, moving)
        self._unlisted = 0
        self._move_options = self._moves(moving)
        options: list[Option] = []
        for t in legal:
            options += self._score(view, t, legal, odds)
        # the best RANKED, ties in the options' order (`heapq.nlargest`'s result, by its own
        # definition; a sort is quicker on so few)
        top = sorted(options, key=_score_of, reverse=True)[:RANKED]
        score, cmd, why = top[0]
        command = cmd.command(why[0]) if type(cmd) is Plan else cmd
        if command["type"] == "move":
            self._moved.setdefault((view["turn"], view["phase"]), set()).add(command["unit"])
        elif command["type"] == "fire":
            self._fired(view, command)
        turn, phase, considered = view["turn"], view["phase"], len(options) + self._unlisted

        def trace() -> dict[str, Any]:  # worded only when read (simulations never read it)
            ranked = [
                (s, c.command(w[0]), c.why(*w)) if type(c) is Plan else (s, c, _words(w))
                for s, c, w in top
            ]
            return {
                "phase": phase,
                "turn": turn,
                "profile": self.profile.name,
                "chosen": {"command": command, "score": round(score, 4), "why": ranked[0][2]},
                "alternatives": [
                    {"command": c, "score": round(s, 4), "why": w} for s, c, w in ranked[1:]
                ],
                "considered": considered,
            }

        return Decision(command, trace)

    def _score(self, view, t: dict[str, Any], legal, odds: Odds) -> list[Option]:
        kind = t["type"]
        if kind == "end_phase":
            return [(0.0, {"type": "end_phase"}, "nothing scores above ending the phase")]
        if kind == "fire":
            return [self._fire(view, t, odds)]
        if kind == "move":
            return self._move_options.get(id(t), [])
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
            self._terrain = (key, view_terrain(view["terrain"]))
        return self._terrain[1]

    def _unit(self, view, uid: str) -> dict[str, Any]:
        """An own unit of this decision's view by id."""
        return self._by_id(view)[0][uid]

    def _enemy(self, view, uid: str) -> dict[str, Any] | None:
        """An observed enemy of this decision's view by id (None if not observed)."""
        return self._by_id(view)[1].get(uid)

    def _by_id(self, view) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Own units and observed enemies of the view by id (worked out once per view)."""
        if self._units[0] is not view:
            self._units = (
                view,
                ({u["id"]: u for u in view["units"]}, {e["id"]: e for e in view["enemies"]}),
            )
        return self._units[1]

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
        if view and self._on_objective((target["x"], target["y"])):
            base *= self.profile.objective_target
        return base

    def _on_objective(self, pos) -> bool:
        """Whether pos is on an objective (within its radius and half an inch; memoised for
        the objectives of the last view decided on)."""
        hit = self._on_objectives[1].get(pos)
        if hit is None:
            hit = self._on_objectives[1][pos] = any(
                math.dist(pos, (x, y)) <= reach for x, y, reach in self._on_objectives[0]
            )
        return hit

    # ------------------------------------------------------------------ fire
    def _fire(self, view, t, odds: Odds) -> Option:
        cmd = command_of(t)
        target = self._enemy(view, cmd["target"])
        state = {k: target.get(k) for k in ("suppressed", "damaged", "stands", "x", "y")}
        facts = _facts(cmd)
        key = (view["turn"], view["phase"], facts, _facts(state))
        if key not in self._odds:
            try:
                self._odds[key] = odds(cmd)
            except (IllegalCommand, RuleError) as exc:
                return -1.0, cmd, f"odds refused: {exc}"
        result = self._shot_odds[facts] = self._odds[key]
        ov = self.profile.outcome_value
        expected = sum(p * ov.get(name, 0.0) for name, p in result["outcomes"].items())
        # results land at the end of the step: a target already shot at this step may be gone
        alive = self._standing.get((view["turn"], view["phase"], cmd["target"]), 1.0)
        value = self._value(target, view)
        score = expected * value * alive
        if cmd.get("suppressive"):
            score *= self.profile.suppressive
        if score < self.profile.min_fire:
            score = -0.01

        def why() -> str:  # worded only for a trace that is read
            best = max(result["outcomes"].items(), key=lambda kv: kv[1] * ov.get(kv[0], 0))
            return (
                f"{result['attack']} at {cmd['target']}: expected value {expected:.3f} x target "
                f"{value:g} x still standing {alive:.2f}; best chance {best[0]} {best[1]:.0%}"
            )

        return score, cmd, why

    def _fired(self, view, cmd) -> None:
        """Remember the chance that this step's shots leave the target standing."""
        key = (view["turn"], view["phase"], cmd["target"])
        result = self._shot_odds.get(_facts(cmd), {"outcomes": {}})
        gone = sum(result["outcomes"].get(k, 0.0) for k in KILLS)
        self._standing[key] = self._standing.get(key, 1.0) * (1.0 - gone)

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
        need = self._min_ratio(view, target)
        if ratio < need:
            return -0.5, cmd, f"strength ratio {ratio:.2f} below {need:g}"
        score = self.profile.assault * 0.4 * ratio * self._value(target, view)
        return score, cmd, f"in contact, strength ratio {ratio:.2f}"

    def _desperate(self, view, target: dict[str, Any]) -> bool:
        """Whether `target` is infantry holding an objective in the game's last
        `desperate_turns` turns: left there, it decides the game."""
        left = view.get("turn_limit", 10**6) - view["turn"]
        return left < self.profile.desperate_turns and any(
            e["id"] == target["id"] for e in self._holding
        )

    def _min_ratio(self, view, target: dict[str, Any]) -> float:
        """The strength ratio an assault on `target` needs: the profile's, or against a
        desperate target (`_desperate`) `desperate_ratio` (a failed assault costs only the
        assaulting unit; the holder left in place costs the game)."""
        p = self.profile
        if self._desperate(view, target):
            return min(p.assault_min_ratio, p.desperate_ratio)
        return p.assault_min_ratio

    # ------------------------------------------------------------------ movement
    def _grounds(
        self, view, u, sight: Sight, withdraw: bool, grounds: list[Ground], near=None
    ) -> tuple[np.ndarray, str, tuple]:
        """The terms of each row position's score that do not depend on friendly units: cover,
        exposure to and shots at the known enemies, closing in on enemies holding an
        objective (`near`: those of `_assaultable`), and either the pull of the objectives
        or, withdrawing, the distance put between the unit and the enemy; with the wording of
        its trace and the figures for it (one array per figure)."""
        p = self.profile
        if near is None:
            near = self._assaultable(view, u, withdraw, self._holders(view))
        pos, seen = sight.pos, sight.seen
        cover = np.concatenate([g.cover() for g in grounds])
        seeing = seen.sum(axis=1)
        shots = (seen & (sight.dist <= RANGE[u["kind"]])).sum(axis=1)
        score = p.cover * cover - p.exposure * seeing * self._fire_ahead(view)
        if near:
            at = np.asarray([(e["x"], e["y"]) for e in near], dtype=float)
            # in the last turns, contact with a holder is worth the hold bonus too: standing
            # on a contested objective wins nothing
            worth = np.asarray([p.close_in + p.hold_bonus * self._desperate(view, e) for e in near])
            gap = np.hypot(pos[:, None, 0] - at[None, :, 0], pos[:, None, 1] - at[None, :, 1])
            score = score + p.assault * np.max((gap <= CONTACT) * worth, axis=1)
        if withdraw:
            nearest = sight.dist.min(axis=1) if sight.enemies else np.full(len(pos), 99.0)
            score = score + p.withdraw * np.minimum(nearest, 24.0)
            return score, "withdraw; cover {:g}, seen by {}", (cover, seeing)
        obj = self._objective_pull(view, u, pos, grounds)
        score = score + obj + p.shooting * shots
        return (
            score,
            "objective {:.1f}, cover {:g}, seen by {}, shots {}",
            (obj, cover, seeing, shots),
        )

    def _holders(self, view) -> list[tuple[dict[str, Any], float, float]]:
        """(enemy, strength counted, ratio needed) of each enemy holding an objective
        (`_holding`, `_min_ratio`): what `_assaultable` weighs each unit against."""
        return [(e, max(self._strength(e), 0.5), self._min_ratio(view, e)) for e in self._holding]

    def _assaultable(self, view, u, withdraw: bool, holders) -> list[dict[str, Any]]:
        """The enemies of `holders` (`_holders`) that this unit is strong enough to close in
        on for an assault: none for vehicles and for units that may only withdraw or are
        suppressed."""
        if u["kind"] == "vehicle" or withdraw or u.get("suppressed"):
            return []
        mine = self._strength(u)
        return [e for e, strength, need in holders if mine / strength >= need]

    def _objective_pull(self, view, u, pos: np.ndarray, grounds: list[Ground]) -> np.ndarray:
        """Per row (of `grounds`, at `pos`): the best objective term (the hold bonus inside
        one, less the pull of the travel distance still to go; vehicles stage a move out
        until the last turn)."""
        p = self.profile
        if not view["objectives"]:
            return np.zeros(len(pos))
        vehicle = u["kind"] == "vehicle"
        table = (view["table"]["width"], view["table"]["depth"])
        late = (view["turn"] / view.get("turn_limit", 8)) ** p.urgency_power
        pull = p.objective * (p.urgency + p.urgency_scale * late)
        best = np.full(len(pos), -np.inf)
        for o in view["objectives"]:
            goal = (o["x"], o["y"])
            d = np.hypot(pos[:, 0] - goal[0], pos[:, 1] - goal[1])
            far = d > o["radius"]
            if far.any():
                travel = np.concatenate([g.travel(goal, table) for g in grounds])
                d = np.where(far, np.maximum(d, travel), d)
            if vehicle and p.stage and not self._last_turn(view):
                # stage one move out of the objective until the last turn's move, which no
                # enemy fire step follows
                best = np.maximum(best, -pull * np.maximum(0.0, d - p.stage))
                continue
            here = np.where(d <= o["radius"] * 0.8, p.hold_bonus, 0.0)
            best = np.maximum(best, here - pull * np.maximum(0.0, d - o["radius"] * 0.5))
        return best

    def _plan_key(self, view, t) -> tuple:
        """The key of a move template's plan (of a unit not moved this phase)."""
        uid = t["unit"]
        u = self._unit(view, uid)
        withdraw = bool(t.get("withdraw_only"))
        return (uid, (u["x"], u["y"]), t["max"], withdraw, len(self._scouted))

    def _plan_all(self, view, moving: dict[int, tuple[dict[str, Any], tuple]]) -> None:
        """Plan the moves of every unit of `moving` (template id -> template, plan key) that
        has no plan yet, all at once."""
        todo = {}
        for t, key in moving.values():
            if key not in self._plans:
                todo[key] = (self._unit(view, t["unit"]), t["max"], key[3])
        if not todo:
            return
        batch = list(todo.values())
        situation = self._situation(view, batch)
        plans = _PLANS.get(situation)
        if plans is None:
            plans = _PLANS[situation] = self._plan_moves(view, batch)
            if len(_PLANS) > PLANS_KEPT:
                _PLANS.popitem(last=False)
        else:
            _PLANS.move_to_end(situation)
        self._plans.update(zip(todo, plans, strict=True))

    def _situation(self, view, batch) -> tuple:
        """Everything the plans of `batch` depend on, as a key of the process's plan memo:
        simulated battles of one scenario meet the same situations again, above all in the
        first turns."""
        return (
            self._profile_key,
            self.terrain(view),  # one object per table's terrain
            tuple((o["x"], o["y"], o["radius"]) for o in view["objectives"]),
            (view["table"]["width"], view["table"]["depth"], view.get("turn_limit")),
            view["turn"],
            view["phase"],
            tuple(_facts(u) for u in view["units"]),
            self._enemy_key,
            tuple(sorted(self._scouted)),
            tuple(sorted(self._enemy_types)),
            tuple((_facts(u), cap, withdraw) for u, cap, withdraw in batch),
        )

    def _moves(self, moving: dict[int, tuple[dict[str, Any], tuple]]) -> dict[int, list[Option]]:
        """Move options of every unit of `moving`, by the id of its template: each
        destination's score (`_grounds` + `_exchange`, planned once per phase and enemy
        picture) less crowding by friends (own units within 2") where they stand now,
        against staying put; all units' rows at once."""
        plans = {i: self._plans[key] for i, (_t, key) in moving.items()}  # by `_plan_all`
        if not plans:
            return {}
        ids = {fid: k for k, (fid, _) in enumerate(self._friends)}
        friends = np.asarray([xy for _, xy in self._friends], dtype=float)
        sizes = [len(plan.pos) for plan in plans.values()]
        first = [0, *itertools.accumulate(sizes[:-1])]
        seg = np.repeat(np.arange(len(plans)), sizes)
        pos = np.concatenate([plan.pos for plan in plans.values()])
        near = (pos[:, None, 0] - friends[None, :, 0]) ** 2 + (
            pos[:, None, 1] - friends[None, :, 1]
        ) ** 2 < 4.0
        own = np.asarray([ids[plan.unit] for plan in plans.values()])[seg]
        near[np.arange(len(pos)), own] = False  # a unit does not crowd itself
        crowd = np.add.reduce(near, axis=1)
        p = self.profile
        net = np.concatenate([plan.score for plan in plans.values()]) - p.spread * crowd
        gain = net - net[first][seg] - p.move_threshold
        # only the best RANKED moves of all can be among the best RANKED options (ties kept in
        # order, as `decide` ranks them: rows come in the options' order); the rest are
        # counted, not listed
        moving = np.ones(len(pos), dtype=bool)
        moving[first] = False  # row 0 of each plan: staying put
        rows = np.nonzero(moving)[0]
        keep = np.sort(rows[np.lexsort((rows, -gain[rows]))[:RANKED]])
        self._unlisted += len(rows) - len(keep)
        out: dict[int, list[Option]] = {k: [] for k in plans}
        keys, listed = list(plans), list(plans.values())
        for r, g, c, k in zip(
            keep.tolist(),
            gain[keep].tolist(),
            crowd[keep].tolist(),
            seg[keep].tolist(),
            strict=True,
        ):
            out[keys[k]].append((g, listed[k], (r - first[k] - 1, c)))
        return out

    def _plan_moves(self, view, batch: list[tuple[dict[str, Any], float, bool]]) -> list[Plan]:
        """A `Plan` for each (unit, move allowance, withdraw only). The rows of all the units
        are weighed together (`_sight`, `_grounds` per kind of unit, `_exchange` for the
        vehicles)."""
        grounds = [self._ground(view, u, cap, withdraw) for u, cap, withdraw in batch]
        sizes = [len(g.rows) for g in grounds]
        ends = np.cumsum(sizes).tolist()
        spans = list(zip([0, *ends[:-1]], ends, strict=True))
        owner = np.repeat(np.arange(len(batch)), sizes)
        rows = np.concatenate([g.rows for g in grounds])
        sight = self._sight(view, rows, grounds)
        score = np.zeros(len(rows))
        done = Pass(len(rows))
        # units whose rows `_grounds` scores alike, weighed together: of one kind, withdrawing
        # or not, and with the same enemies to close in on (`_assaultable`)
        groups: dict[tuple, tuple[list, list[int]]] = {}
        holders = self._holders(view)
        for k, (u, _cap, withdraw) in enumerate(batch):
            near = self._assaultable(view, u, withdraw, holders)
            kind = (u["kind"], withdraw, tuple(e["id"] for e in near))
            groups.setdefault(kind, (near, []))[1].append(k)
        for near, ks in groups.values():
            idx = np.nonzero(_member(owner, ks, len(batch)))[0]
            u, _cap, withdraw = batch[ks[0]]
            group = [grounds[k] for k in ks]
            part, fmt, figures = self._grounds(view, u, sight.rows(idx), withdraw, group, near)
            score[idx] = part
            done.add(idx, fmt, figures)
        units = [u for u, _, _ in batch]
        vehicles = [k for k, u in enumerate(units) if u["kind"] == "vehicle"]
        armour = np.nonzero(_member(owner, vehicles, len(batch)))[0]
        if len(armour):
            moved, covers = [], []
            for k in vehicles:
                moved += self._moved_states(view, units[k], batch[k][1], grounds[k].lengths)
                covers += grounds[k].cover_rows()
            trade = done.trade = self._exchange(
                view,
                units,
                owner[armour],
                moved,
                sight.rows(armour),
                covers,
                [grounds[k] for k in vehicles],
            )
            score[armour] += trade.score
            done.slot[armour] = np.arange(len(armour))
            if trade.facing is not None:
                done.facing[armour] = trade.facing
        return [
            Plan(u["id"], sight.pos[start:end], score[start:end], g.paths, start, done)
            for (u, _cap, _w), (start, end), g in zip(batch, spans, grounds, strict=True)
        ]

    @staticmethod
    def _last_turn(view) -> bool:
        return view["turn"] >= view.get("turn_limit", 10**6)

    def _fire_ahead(self, view) -> float:
        """1 while enemy fire steps remain before the game ends; 0 in a move of the last turn
        (no fire step follows it: standing in the open then costs nothing)."""
        on_move = str(view["phase"]).startswith("move")
        return 0.0 if (on_move and self._last_turn(view)) else 1.0

    @staticmethod
    def _moved_states(view, u, cap: float, lengths: np.ndarray) -> list[str]:
        """The to-hit movement state each move of `lengths` leaves the unit in for the next
        fire steps (`plan.moved_states`)."""
        codes = moved_states(
            lengths, u.get("moved_this_turn", 0.0), cap, view["phase"] == "move_a1"
        )
        return [MOVED[c] for c in codes.tolist()]

    def _ground(self, view, u, cap: float, withdraw: bool) -> Ground:
        """Where this unit can go now (`plan.destinations`): away from every observed enemy
        when it may only withdraw; infantry may also step into contact with enemy infantry
        holding an objective; vehicles that face threats may also turn on the spot."""
        vehicle = u["kind"] == "vehicle"
        if withdraw:
            contact, away = (), tuple((e["x"], e["y"]) for e in view["enemies"])
        else:
            contact = () if vehicle else tuple((e["x"], e["y"]) for e in self._holding)
            away = None
        return destinations(
            self.terrain(view),
            Reach((u["x"], u["y"]), vehicle, cap, u.get("moved_this_turn", 0.0)),
            tuple((o["x"], o["y"]) for o in view["objectives"]),
            (view["table"]["width"], view["table"]["depth"]),
            contact,
            away,
            vehicle and self.profile.face_threat,
        )


def _score_of(option: Option) -> float:
    return option[0]


def _words(why: str | Any) -> str:
    """An option's why: words, or written now by the function given for them."""
    return why() if callable(why) else why


def _member(owner: np.ndarray, ks: list[int], n: int) -> np.ndarray:
    """Whether each row's owner (an index below `n`) is one of `ks` (`np.isin`, without its
    set-up cost on these small arrays)."""
    mask = np.zeros(n, dtype=bool)
    mask[ks] = True
    return mask[owner]


def _facts(data: dict[str, Any]) -> tuple:
    """A flat dict of JSON scalars as a hashable key: the same for equal dicts whose keys
    come in the same order, as the view's and the legal templates' always do (a different
    order could only cost a memo miss)."""
    return tuple(data.items())
