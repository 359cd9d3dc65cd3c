"""Kriegsspiel: a digital umpire for WWII tactical miniatures wargames."""

__version__ = "0.1.0"
