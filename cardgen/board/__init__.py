"""Board, tokens and player aid: print-and-play components besides the cards."""
