"""Extracted public figures (with repository, commit and path) and the conversions that use them."""
