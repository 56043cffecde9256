"""edgartools' HTML parse, without the work a filing's reading never uses or does twice.

Why: parsing is the CPU the embedder competes with during an ingest, and two parts of
edgartools' parse are waste for us (measured on the shared 10-Ks):

- It preprocesses the HTML and builds a node tree of the whole document (every table processed
  into cells) that only its heading and pattern section detectors and `Document.text()` read. Our
  reading takes the cover and facts from the inline-XBRL pass and the Items from the table of
  contents, both over the original HTML; about four filings in five never touch the tree. So the
  tree is made on first use, by edgartools' own steps on the same input.
- Its section extractor renders every table of a section again on each read of the section's
  text, and the detector's validation reads each section three or four times (we once more). A
  render is kept for as long as the table's markup is unchanged (edgartools' render edits some
  tables, and what it renders next from them can differ).

Output is unchanged byte for byte (tests/test_edgar_parse.py holds sections, text and facts to
edgartools' own parse; the shared corpus's 132 filings were compared whole). Should a later
edgartools lack a hook this uses, the parse is edgartools' own: slower, the same output.
"""

from __future__ import annotations

import dataclasses
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


def preload() -> None:
    """Import what a parse imports (edgartools' package, about 0.8 CPU-seconds), so a parse worker
    started ahead of its first document (ingest/parse_worker.py `ParseWorkers`) does it then."""
    import importlib

    for name in ("edgar.documents", "edgar.documents.parser", "edgar.documents.extractors.toc_section_extractor"):
        try:
            importlib.import_module(name)
        except ImportError:  # another edgartools layout: the first parse imports what it needs
            log.debug("edgartools module %s not preloaded", name)
    try:
        _lazy_classes()
    except (ImportError, AttributeError, TypeError):  # as `_deferring_parser` falls back
        pass


@functools.cache
def _lazy_classes():
    """(parser class, document class), made on first use so edgartools is imported only by a parse."""
    from edgar.documents.document import Document, DocumentMetadata
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
        """`HTMLParser.parse` with the tree's whole making (preprocessing the HTML, parsing it,
        reading its <meta> and <title>, building and postprocessing the nodes) left to the
        document's first read of `root`, each step by edgartools' own code on the same input;
        everything else (the XBRL facts, the original HTML the section extractor reads) is done
        during `parse` as before."""

        def __init__(self, config):
            super().__init__(config)
            self._preprocess, self.preprocessor = self.preprocessor, _Later()
            self._postprocess, self.postprocessor = self.postprocessor, _Later()
            self._html = None

        def _parse_html(self, html):
            self._html = html  # as `parse` would hand it to the preprocessor
            return None

        def _extract_metadata(self, tree, html):
            return DocumentMetadata(form=self.config.form)  # the rest once the tree is read

        def _build_document(self, tree, metadata):
            doc = LazyDocument(root=None, metadata=metadata)
            html, parser = self._html, self

            def build_root(document):
                text = parser._preprocess.process(html)
                tree = HTMLParser._parse_html(parser, text)
                _read_metadata(metadata, HTMLParser._extract_metadata(parser, tree, text))
                document.__dict__["root"] = HTMLParser._build_document(parser, tree, metadata).root
                parser._postprocess.process(document)
                return document.__dict__["root"]

            doc.__dict__["_build_root"] = build_root
            return doc

    return DeferringParser, LazyDocument


_SET_BY_PARSE = {"size", "parse_time", "xbrl_data", "preserve_whitespace", "original_html"}


def _read_metadata(metadata, read) -> None:
    """Copy onto the document's metadata what edgartools reads from the tree (form, company, ...):
    every field its reader set, but those `parse` itself set after reading it."""
    blank = type(read)()
    for f in dataclasses.fields(read):
        value = getattr(read, f.name)
        if f.name not in _SET_BY_PARSE and value != getattr(blank, f.name):
            setattr(metadata, f.name, value)


class _Later:
    """Stands in for the preprocessor and the postprocessor during `parse`: the real ones run when
    the tree is made."""

    @staticmethod
    def process(item):
        return item


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
