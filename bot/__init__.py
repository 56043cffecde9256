"""The application shell: settings, the `footnote` command, and the Slack and Teams adapters."""
