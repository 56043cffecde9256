"""edgartools' HTML parse, without the work a filing's reading never uses and none of it done twice.

Why: parsing is the CPU the embedder competes with during an ingest, and two parts of
edgartools' parse are waste for us (measured on the shared 10-Ks):

- It builds a node tree of the whole document (every table processed into cells) that only its
  heading and pattern section detectors and `Document.text()` read. Our reading takes the cover
  and facts from the inline XBRL pass and the Items from the table of contents, which read the
  original HTML; about four filings in five never touch the tree. So the tree is built on first
  use, by edgartools' own builder and postprocessor, exactly as the eager parse builds it.
- Its section extractor renders a section's text again on every `Section.text()` call (the
  detector's validation calls it three or four times per section, and we once more), and renders
  a table again for every section that spans it (an Item and the Part around it). Both are pure
  functions of the boundaries and the HTML tree the extractor fixes when it is made, so each is
  computed once per document.

Output is unchanged byte for byte: tests/test_edgar_parse.py holds a document's sections, text and
facts to the eager, unmemoised parse. If a later edgartools renames what this relies on, the
parse falls back to edgartools' own behaviour (slower, the same output).
"""

from __future__ import annotations

import functools
import logging

log = logging.getLogger(__name__)


def parse_html(text: str, form: str):
    """An edgartools Document of `text` read as `form`, its node tree built on first use and its
    section texts and table renders computed once. Raises what edgartools' `parse_html` raises."""
    from edgar.documents import ParserConfig

    parser = _deferring_parser(ParserConfig(form=form))
    doc = parser.parse(text)
    _memoise_sections(doc)
    return doc


@functools.cache
def _lazy_classes():
    """(parser class, document class), made on first use so edgartools is imported only by a parse."""
    from edgar.documents.document import Document
    from edgar.documents.exceptions import HTMLParsingError
    from edgar.documents.parser import HTMLParser

    class LazyDocument(Document):
        """A Document whose `root` (the node tree) is built when first read."""

        @property
        def root(self):
            state = self.__dict__
            if "root" not in state:
                build = state.pop("_build_root")
                try:
                    state["root"] = build(self)
                except HTMLParsingError:
                    raise
                except Exception as exc:  # as the eager parse reports a failed build
                    raise HTMLParsingError(f"Failed to parse HTML: {exc}", context={"error_type": type(exc).__name__}) from exc
            return state["root"]

        @root.setter
        def root(self, value):
            if value is not None:
                self.__dict__["root"] = value

    class DeferringParser(HTMLParser):
        """`HTMLParser.parse` with the build and the postprocessing of the node tree left to the
        document's first read of `root`; everything else (XBRL facts, metadata, the original HTML
        the section extractor reads) is done as before."""

        def __init__(self, config):
            super().__init__(config)
            self._postprocess = self.postprocessor
            self.postprocessor = _Later()

        def _build_document(self, tree, metadata):
            doc = LazyDocument(root=None, metadata=metadata)
            build, postprocess = super()._build_document, self._postprocess.process

            def build_root(document):
                built = build(tree, metadata)  # edgartools' own build, on the tree parsed eagerly
                document.__dict__["root"] = built.root
                postprocess(document)
                return built.root

            doc.__dict__["_build_root"] = build_root
            return doc

    return DeferringParser, LazyDocument


class _Later:
    """Stands in for the postprocessor during `parse`: the real one runs when the tree is built."""

    @staticmethod
    def process(document):
        return document


def _deferring_parser(config):
    try:
        parser_class, _ = _lazy_classes()
        return parser_class(config)
    except (ImportError, AttributeError, TypeError) as exc:  # an edgartools without these hooks
        log.debug("edgartools parse not deferred: %s", exc)
        from edgar.documents.parser import HTMLParser

        return HTMLParser(config)


def _memoise_sections(doc) -> None:
    """Make the document's section extractor (the one its TOC detector shares) render a table
    again only when its markup has changed since the last render.

    Section texts are read several times each (the TOC detector's validation, then us), and every
    read renders each table in the section anew: most of the cost of the sections. The markup can
    change: edgartools' render edits the tree it reads on some tables (whitespace in their cells,
    again at every render), and a later render of such a table can order its header rows
    differently. So a render is reused only for the very markup it was made from, and each call
    returns what edgartools would have returned.
    """
    try:
        from lxml import etree

        extractor = doc._get_section_extractor()
        render_table = extractor._render_table
    except Exception as exc:  # no extractor (no original HTML) or a renamed hook: edgartools as is
        log.debug("edgartools table renders not memoised: %s", exc)
        return
    renders: dict = {}  # (table element, clean) -> (its markup, its render)

    def _render_table(table, clean):
        key = (table, clean)  # the element itself: kept alive here, its identity stays its own
        markup = etree.tostring(table)
        kept = renders.get(key)
        if kept is not None and kept[0] == markup:
            return kept[1]
        rendered = render_table(table, clean)
        renders[key] = (markup, rendered)
        return rendered

    extractor._render_table = _render_table
