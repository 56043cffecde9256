"""edgartools' HTML parse, without the work a filing's reading never uses or does twice.

Why: parsing is the CPU the embedder competes with during an ingest, and parts of edgartools'
parse are waste for us (measured on the shared 10-Ks):

- It preprocesses the HTML and builds a node tree of the whole document (every table processed
  into cells) that only its heading and pattern section detectors and `Document.text()` read. Our
  reading takes the cover and facts from the inline-XBRL pass and the Items from the table of
  contents, both over the original HTML; about four filings in five never touch the tree. So the
  tree is made on first use, by edgartools' own steps on the same input.
- It parses the whole HTML with lxml twice: once for the inline-XBRL facts, once more in the
  section extractor, the same text with lxml.html parsers that differ only in libxml2's size
  limits (the XBRL pass lifts them: a tree nested deeper than 256 or a 10 MB text node is kept
  whole rather than cut). The extractor is handed the first tree when the text it would parse is
  that text; on the shared corpus the parse output is the same either way.
- Its section extractor walks a section and renders every table in it anew on each read of the
  section's text, and the detector's validation reads each section three or four times (we once
  more); its table processing also edits the tree it reads (a newline added to every <br> tail
  in the cells, at every render), so what a render gave depended on how often it had run. A
  render here leaves the tree as it was, so each table is rendered once and each section walked
  once, with what edgartools' first render gives.

On the shared corpus's 132 filings (compared whole, parse only) facts, line labels and the
cover are unchanged, and so are the sections of 114; in 18 a section holds the same words with a
multi-line table header's lines where edgartools' first render puts them, not where its later
renders of the edited table had moved them. tests/test_edgar_parse.py holds sections, text and
facts to edgartools' own parse. Should a later edgartools lack a hook this uses, the parse is
edgartools' own: slower.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re

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
    from edgar.documents.extractors.toc_section_extractor import SECSectionExtractor
    from edgar.documents.parser import HTMLParser

    class SharedTreeExtractor(SECSectionExtractor):
        """edgartools' section extractor, handed the lxml tree of the inline-XBRL pass instead of
        parsing the same HTML again, when the text it would parse is the text that pass parsed."""

        def __init__(self, document, agent=None, form=None, parsed=None):
            self._parsed = parsed
            super().__init__(document, agent=agent, form=form)

        def _parse_html(self, html_content):
            parsed, self._parsed = self._parsed, None
            if parsed is not None:
                text, tree = parsed
                own = html_content
                if own.startswith("<?xml"):
                    own = re.sub(r"<\?xml[^>]*\?>", "", own, count=1)
                if own == text:  # what `SECSectionExtractor._parse_html` would parse
                    self._clean_html, self._tree = own, tree
                    return tree
            return super()._parse_html(html_content)

    class LazyDocument(Document):
        """A Document whose `root` (the node tree) is built when first read, and whose section
        extractor reuses the inline-XBRL pass's parse of the HTML."""

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

        def _get_section_extractor(self, agent=None, form=None):
            parsed = self.__dict__.pop("_parsed_html", None)
            if self._section_extractor is None and parsed is not None:
                # `Document._get_section_extractor`'s own choice of form and agent
                if form is None:
                    form = self._resolve_form()
                html = getattr(self.metadata, "original_html", None) if self.metadata else None
                if agent is None and html:
                    try:
                        from edgar.documents.agents import detect_filing_agent

                        agent = detect_filing_agent(html)
                    except Exception:
                        agent = None
                self._section_extractor = SharedTreeExtractor(self, agent=agent, form=form, parsed=parsed)
            return super()._get_section_extractor(agent, form)

    class DeferringParser(HTMLParser):
        """`HTMLParser.parse` with the tree's whole making (preprocessing the HTML, parsing it,
        reading its <meta> and <title>, building and postprocessing the nodes) left to the
        document's first read of `root`, each step by edgartools' own code on the same input;
        everything else (the XBRL facts, the original HTML the section extractor reads) is done
        during `parse` as before. The XBRL pass's lxml tree is kept for the section extractor."""

        def __init__(self, config):
            super().__init__(config)
            self._preprocess, self.preprocessor = self.preprocessor, _Later()
            self._postprocess, self.postprocessor = self.postprocessor, _Later()
            self._html = None
            self._parsed = None

        def _extract_xbrl_pre_process(self, html):
            try:
                facts, self._parsed = _xbrl_facts(html)
            except Exception:  # edgartools' own pass, with its own handling of the failure
                self._parsed = None
                return HTMLParser._extract_xbrl_pre_process(self, html)
            return facts

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
            if self._parsed is not None:
                doc.__dict__["_parsed_html"], self._parsed = self._parsed, None
            return doc

    return DeferringParser, LazyDocument


def _xbrl_facts(html: str):
    """edgartools' inline-XBRL pass (`HTMLParser._extract_xbrl_pre_process`: the same parser, the
    same input, the same walk over its elements, each fact read by its `XBRLExtractor`), returning
    the facts and the (text, lxml tree) it parsed, which the section extractor would otherwise
    parse again (the same text, a whole-document parse saved; see the module's docstring for the
    one difference between the two parsers).
    Raises where edgartools' pass would fail; the caller then runs that pass itself."""
    import lxml.html
    from edgar.documents.strategies.xbrl_extraction import XBRLExtractor
    from edgar.documents.utils.html_utils import create_lxml_parser, remove_xml_declaration, terminate_unclosed_comments

    parser = create_lxml_parser(remove_blank_text=False, remove_comments=False, recover=True, encoding="utf-8")
    text = terminate_unclosed_comments(remove_xml_declaration(html))
    tree = lxml.html.fromstring(text, parser=parser)
    extractor = XBRLExtractor()
    facts = []
    for element in tree.iter():
        if element.tag and isinstance(element.tag, str) and "ix:" in element.tag.lower():
            local_name = element.tag.split(":")[-1].lower() if ":" in element.tag else element.tag.lower()
            if local_name in XBRLExtractor.FACT_TAGS:
                fact = extractor.extract_fact(element)
                if fact:
                    parent = element.getparent()
                    while parent is not None:
                        if parent.tag:
                            tag_lower = parent.tag.lower()
                            if "ix:hidden" in tag_lower or "ix:header" in tag_lower:
                                fact.metadata = fact.metadata or {}
                                fact.metadata["hidden"] = True
                                break
                        parent = parent.getparent()
                    facts.append(fact)
    return facts, (text, tree)


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
    """Make the document's section extractor (the one its TOC detector shares) render each table
    once and walk each section once, however often the section's text is read.

    Section texts are read several times each (the TOC detector's validation, then us), and every
    read walked the section and rendered each of its tables anew: most of the cost of the
    sections. What made a render depend on when it ran is an edit: edgartools' table processing
    prepends a newline to the tail of every <br> in the cells it reads, in the very tree the
    extractor walks, again at every render. A table rendered a second time then held one more
    blank line per break, and where two cells of a row both break, lines shift against each
    other. So a render here leaves the table's <br> tails as it found them: the tree never
    changes, a table's render is the same every time (the first one edgartools makes), and so is
    a section's walk; each is computed once and kept for the document.
    """
    try:
        extractor = doc._get_section_extractor()
        render_table = extractor._render_table
        extract_content = extractor._extract_section_content
    except Exception as exc:  # no extractor (no original HTML) or a renamed hook: edgartools as is
        log.debug("edgartools table renders not memoised: %s", exc)
        return
    renders: dict = {}  # (table element, clean) -> its render; the key keeps the element alive
    walks: dict = {}  # (id(boundary), include_subsections, clean) -> (boundary, its text)

    def _render_table(table, clean):
        key = (table, clean)
        if key in renders:
            return renders[key]
        breaks = [(br, br.tail) for br in table.iter("br")]
        try:
            rendered = render_table(table, clean)
        finally:
            for br, tail in breaks:
                br.tail = tail
        renders[key] = rendered
        return rendered

    def _extract_section_content(html_content, boundary, include_subsections, clean):
        key = (id(boundary), include_subsections, clean)
        kept = walks.get(key)
        if kept is not None and kept[0] is boundary and html_content is doc.metadata.original_html:
            return kept[1]
        text = extract_content(html_content, boundary, include_subsections, clean)
        if html_content is doc.metadata.original_html:
            walks[key] = (boundary, text)
        return text

    extractor._render_table = _render_table
    extractor._extract_section_content = _extract_section_content
