"""Golden questions, refusals and threads, scored by plain functions against thresholds."""
