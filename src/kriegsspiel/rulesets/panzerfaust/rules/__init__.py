"""Panzerfaust rules core: one resolution module per rule of pp. 3-44 (seed 000).

Each resolution is a `chance` generator (rolls in, explained steps out, a named `Outcome` back)
taking a `Rules` (catalogue + options). Lost tables are read from the data layer; where the data
holds a null, the value comes from `placeholders.py` and is reported like a data placeholder.
"""
