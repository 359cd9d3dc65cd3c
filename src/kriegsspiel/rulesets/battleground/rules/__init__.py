"""Battleground resolutions, one small module per rule (digest §3 sections cited in each)."""
