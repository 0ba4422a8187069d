"""Mail out: the outbox written with the move, each mail rendered (words, board picture, text
board) and sent, digests, moderators' notices and the pacing of sends.
"""
