"""Meta, domain or refusal judged by meaning as well as by letters (agent.planning.exemplars.by_meaning):
the sentence model is asked only about a message with no subject of its own, its verdict stands only
with a margin, and a question about what a filing states is never refused for its words about the
future. Wordings here are not exemplars: the point is that new wordings land on the right side."""

from __future__ import annotations

import pytest

from agent.planning.exemplars import Meaning, by_meaning, load, meaning_from
from agent.planning.route import MEANING_MARGIN, clear
from agent.planning.rules import plan_rules
from tests.test_route import directory  # noqa: F401  (the module's directory fixture)


class Counting:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, embedder):
        self.inner, self.texts = embedder, []

    def embed(self, texts, **kw):
        self.texts.extend(texts)
        return self.inner.embed(texts, **kw)


@pytest.fixture(scope="module")
def counting(embedder):
    return Counting(embedder)


def plan(directory, text, counting, previous=None):
    with meaning_from(counting):
        return plan_rules(text, previous=previous, directory=directory)


UNSEEN_OFF_TOPIC = [  # worded like a request for help, or like nothing at all; about something else
    "can you help me with my chemistry lab report?",
    "should i tell my landlord about the leak?",
    "what should i say in my wedding speech?",
    "any tips for running a first marathon?",
]


def test_these_wordings_are_not_exemplars():
    texts = {t for _, t in load()}
    assert not (set(UNSEEN_OFF_TOPIC) & texts)


@pytest.mark.parametrize("text", UNSEEN_OFF_TOPIC)
def test_off_topic_is_refused_by_meaning_politely(directory, counting, text):
    p = plan(directory, text, counting)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


@pytest.mark.parametrize("text, intent", [
    ("alright then, see ya", "goodbye"),  # its letters are nearest "alright", an acknowledgement
    ("helo", "greeting"),  # its meaning is nearest "ok"; its letters read the typo
    ("cool cool, many thanks", "thanks"),
    ("are you an actual person or software?", "about"),
    ("hey there 👋", "greeting"),
])
def test_small_talk_gets_the_reply_both_judges_agree_on(directory, counting, text, intent):
    p = plan(directory, text, counting)
    assert (p.route, p.intent) == ("meta", intent), p


@pytest.mark.parametrize("text", [
    "What was Apple's revenue in fiscal 2024?",
    "Nvidia net income FY2025",
    "what does Walmart expect for capital spending next year?",
])
def test_a_question_with_a_subject_never_asks_the_model(directory, counting, text):
    """A figure's question must not wait for (or load) the sentence model."""
    before = len(counting.texts)
    p = plan(directory, text, counting)
    assert p.route == "domain", p
    assert len(counting.texts) == before


@pytest.mark.parametrize("text", [
    "what does Walmart expect for capital spending next year?",
    "hi, what does Tesla plan to spend on capex?",
    "thanks, and what guidance does Apple's 10-K give on its tax rate?",
    "what will be recognized as amortization expense by Nvidia in future years?",
    "how is Apple forecasting foreign currency effects?",
])
def test_what_a_filing_states_about_the_future_is_answered(directory, counting, text):
    p = plan(directory, text, counting)
    assert p.route == "domain", p


@pytest.mark.parametrize("text", [
    "do you reckon Tesla shares will double?",
    "what's your price target for Nvidia?",
    "should I move my 401k into Apple?",
])
def test_footnote_own_predictions_and_advice_are_refused(directory, counting, text):
    p = plan(directory, text, counting)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


def test_a_fragment_in_a_thread_stays_with_the_thread(directory, counting):
    """Its letters leave "ok and the other company?" to the domain path; by meaning it resembles an
    advice request (the masked word "company"). In a thread the memory completes it instead."""
    first = plan(directory, "Walmart net income 2024", counting)
    p = plan(directory, "ok and the other company?", counting, previous=first)
    assert p.refusal_reason != "out_of_scope", p


def test_an_unclear_meaning_is_no_verdict():
    close_call = Meaning("refuse", "advice", 0.3, MEANING_MARGIN / 2, 0.8, "x")
    far = Meaning("meta", "greeting", 0.5, 0.5, 0.2, "x")
    assert not clear(close_call) and not clear(far)
    assert clear(Meaning("meta", "greeting", 0.5, MEANING_MARGIN, 0.8, "x"))


def test_without_a_lent_model_there_is_no_judgement_by_meaning():
    assert by_meaning("hello there") is None


def test_what_an_unknown_company_expects_is_never_refused_as_a_forecast(directory, counting):
    """No company we hold, no thread: refused for want of a company, never as a prediction request."""
    p = plan(directory, "what does acme widgets expect for demand next year?", counting)
    assert p.refusal_reason != "out_of_scope", p
