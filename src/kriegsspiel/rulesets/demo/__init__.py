"""demo: a tiny shipped ruleset that proves the engine generic (issue 14 item 9).

Not a wargame of any rulebook: a patrol game in cm with alternating activations
(engine.flow.ActivationQueue), a reaction prompt on every move (engine.flow.ReactionPrompt:
opportunity fire), hidden pieces and per-side aliases for enemy pieces (engine.aliases), and
the victory predicates of engine.victory. Its numbers are invented for the demo (placeholder)
and cited nowhere as a rulebook's.
"""

KINDS: dict = {}
UNIT = "cm"


def game_rules():
    """The demo's face to the game engine."""
    from .game import DemoGame

    return DemoGame()
