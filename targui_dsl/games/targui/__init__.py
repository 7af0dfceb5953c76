"""Targui (Jumbo, 1988) and its variants: the rules, the state, what each seat sees, how it is drawn."""
