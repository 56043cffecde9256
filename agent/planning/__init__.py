"""The question to a Plan: the rules planner and its word lists, the model planner, follow-ups."""
