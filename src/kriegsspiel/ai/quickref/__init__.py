"""The quickref bot and its helpers (terrain as the bot sees it, move plans, shot odds, the
vehicle exchange, profiles as data), registered for the quickref ruleset."""

from ..registry import register_bot
from .bot import QuickrefBot
from .profiles import Profile, load_profile, profile_names

register_bot("quickref", lambda profile, seed: QuickrefBot(profile))

__all__ = ["Profile", "QuickrefBot", "load_profile", "profile_names"]
