"""Translators' tools: PO export and import, translation state, the bilingual proof, the
review marks and ``check --fix``.

Takes the model, the faces and the check's findings; gives files for translators and edits
of ``card_data/``.
"""
