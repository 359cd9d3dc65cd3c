"""The web umpire: FastAPI app, seats with secret tokens, a hub that fans views out."""

from .app import create_app

__all__ = ["create_app"]
