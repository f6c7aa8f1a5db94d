"""Data stage: ``card_data/`` and ``layouts/`` YAML → the typed model.

Takes the project's files; gives :class:`~cardgen.data.model.GameData` and the card layout,
every value remembering its file:line, plus surgical in-place edits of the YAML.
"""
