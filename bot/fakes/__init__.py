"""Local fakes of the network edge, shipped with the benches that drive them: Slack's Web API
(`slack_api`) and the Bot Framework connector (`connector`), on loopback HTTP servers
(`loopback`). The tests use the same fakes; nothing here is imported by the running bots."""
