"""cardgen: print-and-play asset generator for A Vote for the King of the Romans."""

__version__ = "0.1.0"
