"""Files stage: everything that touches the disk safely.

Takes paths; gives atomic writes, content digests and caches, the build lock, restricted
unpickling and located OS errors. Imports nothing of the game.
"""
