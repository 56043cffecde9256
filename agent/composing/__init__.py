"""Evidence to a draft: the extractive composer and the model's."""
