"""Read models of the event log (ARCHITECTURE.md, "The read side: projections").

Each projection is rows written from the events as they are appended, with one writer, and
rebuildable from the log at any time; readers read rows instead of replaying games.
"""
