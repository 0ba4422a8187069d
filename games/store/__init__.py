"""The event store's plumbing beside the models: rows written without the ORM on the move path, and
the signal a write sends.
"""
