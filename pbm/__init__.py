"""pbm: a play-by-email game master for the island trading game "Settler"."""

__version__ = "0.1.0"
