"""Bots: players that see only their side's view, its legal commands and an odds callback."""

from .bot import Bot, Decision, RandomBot
from .profiles import Profile, load_profile, profile_names

__all__ = ["Bot", "Decision", "Profile", "RandomBot", "load_profile", "profile_names"]
