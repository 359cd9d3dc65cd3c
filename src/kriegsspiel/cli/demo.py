"""`kriegsspiel demo`: a short tour of odds and explained rolls (until the web umpire lands)."""

from __future__ import annotations

from .common import console
from .main import main as run


def demo() -> None:
    steps = [
        (
            'Exact odds: a Tiger fires at a T-34 M41, 20", front',
            [
                "odds",
                "quickref",
                "fire",
                "--firer",
                "PzKw VI",
                "--target",
                "T-34 M41",
                "--range",
                "20",
            ],
        ),
        (
            "Three squads and an MMG fire into a building",
            [
                "odds",
                "quickref",
                "small-arms",
                "--strength",
                "9",
                "--range",
                "6",
                "--terrain",
                "building",
            ],
        ),
        (
            "One seeded roll, explained",
            [
                "resolve",
                "quickref",
                "fire",
                "--firer",
                "T-34/85",
                "--target",
                "PzKw V",
                "--range",
                "15",
                "--target-moved",
                "--seed",
                "3",
            ],
        ),
        ("Data provenance", ["data", "audit", "quickref"]),
    ]
    for title, argv in steps:
        console.rule(title)
        run(argv)
