"""Errors a user may see. Only the adapter edge catches broadly; these carry a polite message."""


class FootnoteError(Exception):
    """Base for errors whose message is safe and useful to show a user."""


class DatabaseError(FootnoteError):
    pass


class EmbeddingMismatch(FootnoteError):
    pass
