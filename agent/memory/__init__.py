"""The thread's memory: the Postgres checkpointer and the node that writes the carry-over."""
