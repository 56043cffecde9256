"""The checkpointed LangGraph agent that turns a chat turn into a grounded Answer or a refusal."""
