"""Shared by every test module."""

from __future__ import annotations

import signal

# A run started in the background by a non-interactive shell (`pytest &`, nohup, some CI
# runners) inherits SIGINT ignored, and so would every child it starts: the Ctrl-C tests
# would then test nothing. Give children the default disposition, as a terminal would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
