"""The online table (issue 15): Tabletop Simulator deck sheets, board and token images and a
saved object in the setup position of rule 3, plus a generic image set (one PNG per card
face at 300 dpi and a CSV) for virtual tables that import images by hand.

:func:`vtt_files` lists every file of ``output/<lang>/vtt/`` with what its bytes depend on
and how to make them; the caller (``outputs.py``) turns them into build targets, so only
files whose inputs changed are made again. :mod:`.geometry` lays the table out from the
measured constants of ``layouts/vtt.yaml``; :mod:`.links` checks ``--vtt-base-url`` and
points each language's save at its own images.
"""

from .files import VttFile, vtt_files
from .plan import load_config, plan_piles, plan_sheets

__all__ = ["VttFile", "load_config", "plan_piles", "plan_sheets", "vtt_files"]
