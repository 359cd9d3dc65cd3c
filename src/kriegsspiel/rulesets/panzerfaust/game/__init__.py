"""Panzerfaust on the table (issue 19): the game state, the turn of p6 as a phase table with
one handler per phase (phases.py), observation and hidden information, the view."""
