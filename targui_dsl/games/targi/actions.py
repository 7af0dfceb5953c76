"""Targi's integer actions: one small choice per decision, each id meaning one thing everywhere.

Their texts (``Merchant (5)``, ``centre 3: ...``, ``give salt``...) are written by :mod:`.texts`, what
logs and people write; a text is read back against the legal actions of the state at hand
(:func:`.state.TargiState.actions_from_text`), in the older spelling (``border 5``) too.
"""

from __future__ import annotations

from typing import Final

A_BORDER: Final = 0  # + ring index: place a Targi there, or act with the one there
A_SPACE: Final = 64  # + centre space: act with the tribe marker there, or move a marker from/to it
A_STOP: Final = 128  # end this player's actions, stop trading, skip an optional action
A_HAND: Final = 129  # keep the tribe card in hand
A_DISCARD: Final = 130  # discard the tribe card
A_HAND_DISPLAY: Final = 131  # display the hand card without the Noble (a modifier allows it)
A_OPTION: Final = 132  # + k: a cost option, an exchange, a raid's option
A_ROW: Final = 140  # + r: a display row
A_GOOD: Final = 148  # + g: a good (taken, given, or left out of a cost)
A_CARD: Final = 156  # + i: the i-th card of the deciding player's display
A_NUMBER: Final = 204  # + i: the i-th number an effect offers
NUM_ACTIONS: Final = A_NUMBER + 256

MAX_RING, MAX_SPACES, MAX_OPTIONS, MAX_ROWS, MAX_GOODS, MAX_DISPLAY = 64, 64, 8, 8, 8, 48
