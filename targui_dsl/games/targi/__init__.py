"""Targi (Kosmos 2012): the second game, written as data in the same toolkit."""
