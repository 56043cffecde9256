"""Every figure and quote checked against the evidence it cites before it ships."""
