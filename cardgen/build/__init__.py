"""Build stage: one module per command (check, build, preview, tables, fix, proof, po, watch).

Takes a project folder and the command's options; runs the stages below in order and gives
a report the CLI prints. ``making`` and ``outputs`` make and stage the output files.
"""
