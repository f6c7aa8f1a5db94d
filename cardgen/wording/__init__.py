"""Wording stage: effects → printed words.

Takes the model; gives each card's face in each language (sandboxed templates, declined
names, Czech typography and plurals) and the component texts as printed.
"""
