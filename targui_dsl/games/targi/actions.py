"""Targi's integer actions: one small choice per decision, each id meaning one thing everywhere.

Their texts (``Merchant (5)``, ``centre 3: ...``, ``give salt``...) are written by :mod:`.texts`, what
logs and people write; a text is read back against the legal actions of the state at hand
(:func:`.state.TargiState.actions_from_text`), in the older spelling (``border 5``) too.
"""

from __future__ import annotations

A_BORDER = 0  # + ring index: place a Targi there, or act with the one there
A_SPACE = 64  # + centre space: act with the tribe marker there, or move a marker from/to it
A_STOP = 128  # end this player's actions, stop trading, skip an optional action
A_HAND = 129  # keep the tribe card in hand
A_DISCARD = 130  # discard the tribe card
A_HAND_DISPLAY = 131  # display the hand card without the Noble (a modifier allows it)
A_OPTION = 132  # + k: a cost option, an exchange, a raid's option
A_ROW = 140  # + r: a display row
A_GOOD = 148  # + g: a good (taken, given, or left out of a cost)
A_CARD = 156  # + i: the i-th card of the deciding player's display
A_NUMBER = 204  # + i: the i-th number an effect offers
NUM_ACTIONS = A_NUMBER + 256

MAX_RING, MAX_SPACES, MAX_OPTIONS, MAX_ROWS, MAX_GOODS, MAX_DISPLAY = 64, 64, 8, 8, 8, 48
