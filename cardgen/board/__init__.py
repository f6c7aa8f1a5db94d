"""Board, tokens and player aid: print-and-play components besides the cards.

Each builder returns PDF bytes; the pipeline decides where they are written.
"""

from .aid import build_player_aid
from .board import build_board
from .tiles import build_board_tiles
from .tokens import build_tokens

__all__ = ["build_board", "build_board_tiles", "build_player_aid", "build_tokens"]
