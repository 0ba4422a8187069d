"""What a reader is shown, for the web and for mail alike: the board picture kit, a game displayed
(board, players, log, waiting), its steps, what a seat has already seen, the service's words,
times and typography.  Nothing here writes.
"""
