"""A statement row or a member in the words analysts use: hyphens, "attributable to", abbreviations, a change
word, a typo, the statement the row is printed on, a member's name holding the metric's word, and a row
narrowed by a member. Each match stays exact: a word that names nothing the company prints refuses."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from agent.planning.corrections import LAYOUT
from agent.planning.words import account, statement_place
from agent.retrieval.line_items import resolve
from agent.retrieval.row_members import row_on_member
from agent.retrieval.segments import find_member
from store.labels import replace_labels
from tests.test_facts import company, fact, filing


def _row(label, concept, statement="balance"):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def _one(phrase: str, labels: list[dict], **kw) -> str | None:
    match, _ = resolve(phrase, phrase, labels, [], **kw)
    return match.concept if match else None


def test_non_hyphenated_or_not_is_one_name():
    labels = [_row("Redeemable non-controlling interests", "us-gaap:RedeemableNoncontrollingInterestEquityCarryingAmount"),
              _row("Non-cash property additions", "us-gaap:CapitalExpendituresIncurredButNotYetPaid", "cash")]
    assert _one("redeemable noncontrolling interests", labels) == labels[0]["concept"]
    # "cash" taken by another part of the plan: the question's "non" still stands for the row's
    match, _ = resolve("non property additions", "non cash property additions", labels, [])
    assert match is not None and match.concept == labels[1]["concept"]
    assert _one("redeemable interests", labels) is None  # the row's other word is still needed


def test_attributable_and_available_to_are_one_relation():
    labels = [_row("Net loss available to common shareholders", "us-gaap:NetIncomeLossAvailableToCommonStockholdersDiluted",
                   "income"),
              _row("Net income attributable to noncontrolling interests", "us-gaap:NetIncomeLossAttributableToNoncontrollingInterest",
                   "income")]
    assert _one("net loss attributable to common shareholders", labels) == labels[0]["concept"]
    assert _one("net loss to preferred shareholders", labels) is None


def test_admin_and_pre_tax_are_the_rows_words():
    labels = [_row("Selling, distribution, and administrative expenses", "us-gaap:SellingGeneralAndAdministrativeExpense",
                   "income"),
              _row("Earnings before income tax expense", "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxes",
                   "income")]
    assert _one("selling distribution and admin", labels) == labels[0]["concept"]
    assert _one("pre-tax earnings", labels) == labels[1]["concept"]


def test_a_change_word_finds_the_change_row_and_never_the_balance():
    balance = _row("Accounts payable", "us-gaap:AccountsPayableCurrent")
    change = _row("Increase (decrease) in accounts payable", "us-gaap:IncreaseDecreaseInAccountsPayable", "cash")
    assert _one("change in accounts payable", [balance, change]) == change["concept"]
    assert _one("accounts payable", [balance, change]) == balance["concept"]
    # only the balance printed: a change in it is another figure, refused rather than answered with the level
    assert _one("change in accounts payable", [balance]) is None


def test_a_one_letter_typo_is_the_word_the_company_prints():
    labels = [_row("Total liabilities", "us-gaap:Liabilities"), _row("Other operating liabilities",
                                                                    "us-gaap:OtherLiabilitiesNoncurrent")]
    match, _ = resolve("liabilties", "total liabilties", labels, [], total=True)
    assert match is not None and match.concept == "us-gaap:Liabilities"
    assert _one("other operating liabilites", labels) == "us-gaap:OtherLiabilitiesNoncurrent"
    assert _one("other operating lumber", labels) is None  # no printed word near: refused, never guessed


def test_a_name_of_words_that_name_nothing_alone_matches_the_row_printing_exactly_them():
    labels = [_row("Total costs and expenses", "us-gaap:CostsAndExpenses", "income"),
              _row("Costs and expenses of services", "us-gaap:CostOfServices", "income")]
    match, _ = resolve("costs expenses", "costs expenses", labels, [], total=True)
    assert match is not None and match.concept == "us-gaap:CostsAndExpenses"
    # without "total": still the one row printing those words beside "total" ("Meta costs and expenses")
    assert resolve("costs expenses", "costs expenses", labels, [])[0].concept == "us-gaap:CostsAndExpenses"
    # a row printing them bare is the user's words exactly, and wins over the total
    bare = labels + [_row("Costs and expenses", "us-gaap:OperatingCostsAndExpenses", "income")]
    assert resolve("costs expenses", "costs expenses", bare, [])[0].concept == "us-gaap:OperatingCostsAndExpenses"
    # two totals printing them: neither
    two = labels + [_row("Total costs and expenses, net", "us-gaap:CostsAndExpensesNet", "income")]
    assert resolve("costs expenses", "costs expenses", two, [])[0] is None


def test_a_named_statement_is_the_rows_place_not_its_words():
    assert statement_place("deferred income taxes on Walmart's cash flow statement fy2024")[0] == "cash"
    assert statement_place("change in accounts payable in the cash flow, fiscal 2023")[0] == "cash"
    assert statement_place("noncontrolling interest on the balance sheet")[0] == "balance"
    # a figure named "cash flow" stays a figure
    for figure in ("operating cash flow 2023", "free cash flow", "cash flow from operations", "in cash flow from operations"):
        assert statement_place(figure) == ("", figure)


def test_how_to_answer_is_no_word_of_the_figure():
    assert LAYOUT.sub(" ", "income before income taxes, answer in one line").strip(" ,") == "income before income taxes"
    assert LAYOUT.search("a line item called other income") is None
    assert LAYOUT.search("line of credit") is None
    assert LAYOUT.sub(" ", "net cash from financing, no commentary").strip(" ,") == "net cash from financing"


def test_state_before_a_tax_word_is_the_jurisdiction():
    trace, _ = account("deferred state income tax expense", [])
    assert next(t for t in trace if t["word"] == "state")["as"] == "unaccounted"
    trace, _ = account("please state the figure", [])
    assert next(t for t in trace if t["word"] == "state")["as"] == "filler"


PRODUCTS = [("srt:ProductOrServiceAxis", "bmy:SalesRevenueGrossMember"),
            ("srt:ProductOrServiceAxis", "bmy:NetProductSalesMember"),
            ("srt:ProductOrServiceAxis", "bmy:OtherrevenuesMember"),
            ("srt:ProductOrServiceAxis", "bmy:AllianceAndOtherRevenuesMember")]
PRINTED = {"bmy:SalesRevenueGrossMember": {"Gross product sales"}, "bmy:NetProductSalesMember": {"Net product sales"},
           "bmy:OtherrevenuesMember": {"Other revenues"}, "bmy:AllianceAndOtherRevenuesMember": {"Alliance and other revenues"}}
REVENUE_WORDS = frozenset({"revenue", "sale", "sales", "revenues"})


def test_a_members_printed_name_may_hold_the_metrics_word():
    found, exact = find_member("gross product", PRODUCTS, PRINTED, metric_words=REVENUE_WORDS)
    assert exact and found == [PRODUCTS[0]]
    found, exact = find_member("other", PRODUCTS, PRINTED, metric_words=REVENUE_WORDS)
    assert exact and found == [PRODUCTS[2]]  # "Other revenues", never "Alliance and other revenues"
    assert find_member("spine", PRODUCTS, PRINTED, metric_words=REVENUE_WORDS) == ([], False)


def test_a_qname_run_together_an_accent_and_a_typo_still_name_the_member():
    clouds = [("srt:ProductOrServiceAxis", "crm:MarketingandCommerceCloudMember"),
              ("srt:ProductOrServiceAxis", "crm:ServiceCloudMember")]
    assert find_member("marketing & commerce cloud", clouds, {}) == ([clouds[0]], True)
    lines = [("srt:ProductOrServiceAxis", "hd:MajorProductLineDecorMember"),
             ("srt:ProductOrServiceAxis", "hd:HardlinesMember")]
    assert find_member("decor", lines, {"hd:MajorProductLineDecorMember": {"Décor"}}) == ([lines[0]], True)
    segments = [("us-gaap:StatementBusinessSegmentsAxis", "tmo:LifeSciencesSolutionsMember"),
                ("us-gaap:StatementBusinessSegmentsAxis", "tmo:SpecialtyDiagnosticsMember")]
    assert find_member("life sciences solutons", segments, {}) == ([segments[0]], True)
    assert find_member("life sciences tools", segments, {})[0] == []


def test_a_row_narrowed_by_a_member_is_the_members_fact_of_the_rows_concept(db):
    """'long-lived assets in Israel': the row printed "Long-lived assets", on the country's fact; a member the
    company does not tag is refused, never answered with the total."""
    cik, acc = 1045810, "nvda-25"
    geo = "srt:StatementGeographicalAxis"
    with db.connection() as conn:
        company(conn, cik, "NVIDIA Corp", ["NVDA"], "0126")
        filing(conn, cik, acc, 2025, date(2025, 1, 26))
        fact(conn, cik, acc, "NoncurrentAssets", "6283000000", date(2025, 1, 26), fiscal_year=2025)
        fact(conn, cik, acc, "NoncurrentAssets", "840000000", date(2025, 1, 26), fiscal_year=2025,
             dims={geo: "country:IL"})
        fact(conn, cik, acc, "NoncurrentAssets", "4850000000", date(2025, 1, 26), fiscal_year=2025,
             dims={geo: "country:US"})

        class Row:
            def __init__(self, label, concept, row, dims=None):
                self.taxonomy, self.concept, self.label, self.statement = "us-gaap", concept, label, "other"
                self.table_no, self.row_no, self.negated, self.dims = 1, row, False, dims or {}
        replace_labels(conn, acc, cik, [Row("Total long-lived assets", "NoncurrentAssets", 1),
                                        Row("Israel", "NoncurrentAssets", 2, {geo: "country:IL"}),
                                        Row("United States", "NoncurrentAssets", 3, {geo: "country:US"})])
        nvidia = {"cik": cik, "ticker": "NVDA", "name": "NVIDIA Corp"}
        found = row_on_member(conn, {}, nvidia, "long-lived assets in Israel", 2025)
        assert found is not None
        match, member = found
        assert match.concept == "us-gaap:NoncurrentAssets" and member.member == "country:IL"
        assert member.value == Decimal("840000000")
        assert row_on_member(conn, {}, nvidia, "long-lived assets in Germany", 2025) is None
        assert row_on_member(conn, {}, nvidia, "long-lived assets", 2025) is None  # no member asked: the row's own


def test_a_line_asked_on_a_named_statement_keeps_that_statement_on_its_key():
    from agent.planning.companies import CompanyDirectory
    from agent.planning.rules import plan_rules
    from agent.retrieval.line_items import line_statement
    from tests.test_companies import COVERED, SEC

    directory = CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 104169: [2024, 2025]})
    p = plan_rules("deferred income taxes on Walmart's cash flow statement fy2025", directory=directory)
    keys = p.metrics or p.probe  # a figure, or (no printed names in this directory) a row probed before prose
    assert keys and all(k.startswith("line:") and line_statement(k) == "cash" for k in keys)  # never "cash"
    # a balance metric asked on the cash-flow statement is that statement's line, never the balance
    p = plan_rules("Apple change in accounts payable in the cash flow, fiscal 2024", directory=directory)
    (key,) = p.metrics
    assert line_statement(key) == "cash" and "change" in key and "accounts payable" in key.split("|")[0]
    assert plan_rules("Apple accounts payable fiscal 2024", directory=directory).metrics == ["accounts_payable"]


def test_the_effect_on_cash_is_the_one_row_printing_restricted_cash_beside_it():
    fx = _row("Effect of exchange rates on cash, cash equivalents and restricted cash",
              "us-gaap:EffectOfExchangeRateOnCashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents", "cash")
    restricted = _row("Restricted cash", "us-gaap:RestrictedCashCurrent")
    assert _one("effect of exchange rates on cash", [fx, restricted]) == fx["concept"]
    # "restricted cash" is its own row, never the total that includes it
    assert _one("restricted cash", [fx, restricted]) == restricted["concept"]


def test_proceeds_from_selling_is_the_rows_proceeds_from_disposals():
    labels = [_row("Proceeds from disposals of property, plant and equipment",
                   "us-gaap:ProceedsFromSaleOfPropertyPlantAndEquipment", "cash"),
              _row("Selling, general and administrative expenses", "us-gaap:SellingGeneralAndAdministrativeExpense", "income")]
    assert _one("proceeds from selling property plant and equipment", labels) == labels[0]["concept"]
    assert _one("proceeds from selling general and administrative", labels) is None


def test_a_metric_narrowed_only_by_an_axis_word_is_the_whole_axis():
    from agent.retrieval.segments import plan_key

    assert plan_key("segment revenue", ["segment"]) == "dim:revenue|*segment"
    assert plan_key("data center revenue", ["data", "center"]) == "dim:revenue|data center"


def test_a_segment_named_for_its_maker_narrows_the_figure_to_the_segment():
    from agent.planning.companies import CompanyDirectory
    from agent.planning.rules import plan_rules
    from tests.test_companies import COVERED, SEC

    unh = (731766, "UNITEDHEALTH GROUP INC")
    directory = CompanyDirectory.from_rows([*COVERED, (unh[0], unh[1], ["UNH"])], [*SEC, ("UNH", *unh)],
                                           {731766: [2023, 2024]})
    p = plan_rules("UnitedHealthcare revenue 2023", directory=directory)
    assert p.tickers == ["UNH"] and p.metrics == ["dim:revenue|unitedhealthcare"]  # never the group's total
    assert plan_rules("UnitedHealth revenue 2023", directory=directory).metrics == ["revenue"]


def test_a_span_said_as_over_n_years_or_an_n_year_trend_is_the_last_n_years():
    from agent.planning.years import parse_years as read_years

    for said in ("fulfillment, 3-year trend", "fulfillment expense over three years", "the last three years"):
        years = read_years(said)
        assert years.offsets == [-2, -1, 0] and years.latest, said
    assert read_years("over three years ended 2023").offsets != [-2, -1, 0]  # anchored on its own year
    for said in ("inventory trend over the last 3 years (FY2023)", "the past three years through fiscal 2023"):
        years = read_years(said)  # the span ends at the one year said, never at the latest held
        assert years.years == [2021, 2022, 2023] and not years.latest and not years.offsets, said


def test_current_is_never_read_inside_noncurrent():
    labels = [_row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityCurrent"),
              _row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityNoncurrent")]
    assert _one("current deferred revenue", labels) == "us-gaap:ContractWithCustomerLiabilityCurrent"
    assert _one("non-current deferred revenue", labels) == "us-gaap:ContractWithCustomerLiabilityNoncurrent"


def test_a_typo_is_read_only_as_the_one_printed_word_a_letter_away():
    from agent.retrieval.spelling import as_printed, one_edit

    assert one_edit("liabilties", "liabilities") and one_edit("incme", "income") and one_edit("solutons", "solutions")
    assert one_edit("revneue", "revenue") and not one_edit("revenue", "revenue") and not one_edit("lumber", "number2")
    printed = frozenset({"liability", "income", "investment"})
    assert as_printed(frozenset({"liabilty", "incme"}), printed) == {"liability", "income"}
    assert as_printed(frozenset({"lumber"}), printed) == {"lumber"}  # near nothing printed: kept, and refused by
    assert as_printed(frozenset({"cost"}), frozenset({"coat", "cast"})) == {"cost"}  # short words are never read


def test_a_rows_sign_words_typed_without_brackets_still_name_it():
    labels = [_row("Income tax provision (benefit)", "us-gaap:IncomeTaxExpenseBenefit", "income"),
              _row("Equity income (loss)", "us-gaap:IncomeLossFromEquityMethodInvestments", "income"),
              _row("Net income (loss) attributable to common stockholders",
                   "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic", "income")]
    assert resolve("benefit", "income tax provision benefit", labels, [])[0].concept == labels[0]["concept"]
    assert _one("equity income loss", labels) == labels[1]["concept"]
    assert resolve("attributable common stockholders", "net income loss attributable common stockholders", labels,
                   [])[0].concept == labels[2]["concept"]
    assert _one("equity loss", labels) is None  # the row's own word is still needed
    assert _one("income tax benefit deferred", labels) is None


def test_a_left_over_non_is_the_questions_non_word():
    labels = [_row("Total current assets", "us-gaap:AssetsCurrent"),
              _row("Total non-current assets", "us-gaap:AssetsNoncurrent")]
    match, _ = resolve("non", "non current assets", labels, [], total=True)
    assert match is not None and match.concept == "us-gaap:AssetsNoncurrent"


def test_linking_words_beside_a_metric_are_the_row_printing_them_never_the_metrics_row():
    labels = [_row("Cash and cash equivalents", "us-gaap:CashAndCashEquivalentsAtCarryingValue"),
              _row("Cash provided by operations", "us-gaap:NetCashProvidedByUsedInOperatingActivities", "cash"),
              _row("Research and development expense, net", "us-gaap:ResearchAndDevelopmentExpense", "income")]
    assert resolve("provided operations", "cash provided operations", labels, [])[0].concept == labels[1]["concept"]
    assert resolve("net", "r&d net", labels, [])[0].concept == labels[2]["concept"]
    assert resolve("held", "cash held", labels, [])[0] is None  # a word no row prints: not the cash balance


def test_a_notes_single_match_never_settles_the_primary_statements_ambiguity():
    rows = [_row("Restructuring and impairment costs", "us-gaap:RestructuringCharges", "income"),
            _row("Restructuring and impairment costs", "us-gaap:RestructuringCostsAndAssetImpairmentCharges", "income"),
            _row("Restructuring and impairment costs", "x:EffectiveIncomeTaxReconciliationRestructuringAmount", "other")]
    match, candidates = resolve("restructuring impairment", "restructuring impairment", rows, [])
    assert match is None and {c.concept for c in candidates} == {r["concept"] for r in rows[:2]}
    # a balance printed as its current and non-current parts is named whole by the note's total
    debt = [_row("Term debt", "us-gaap:LongTermDebtCurrent"), _row("Term debt", "us-gaap:LongTermDebtNoncurrent"),
            _row("Total term debt", "us-gaap:LongTermDebt", "other")]
    assert _one("term debt", debt) == "us-gaap:LongTermDebt"


def test_a_member_printing_a_region_abbreviation_is_named_by_it_as_typed():
    segs = [("us-gaap:StatementBusinessSegmentsAxis", "x:BuildingSolutionsEMEALAMember"),
            ("us-gaap:StatementBusinessSegmentsAxis", "x:BuildingSolutionsNorthAmericaMember")]
    printed = {"x:BuildingSolutionsEMEALAMember": {"Building Solutions EMEA/LA"},
               "x:BuildingSolutionsNorthAmericaMember": {"Building Solutions North America"}}
    assert find_member("building solutions emea/la", segs, printed) == ([segs[0]], True)
    assert find_member("building solutions emea la", segs, printed) == ([segs[0]], True)
    assert find_member("building solutions latin america", segs, printed)[0] != [segs[1]]


def test_a_change_asked_beside_linking_words_is_the_change_row_never_the_balance():
    rows = [_row("Cash and equivalents", "us-gaap:CashAndCashEquivalentsAtCarryingValue"),
            _row("Net increase (decrease) in cash and equivalents",
                 "us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect",
                 "cash")]
    match, _ = resolve("net", "net cash and equivalents", rows, [], optional="increase decrease")
    assert match is not None and match.concept == rows[1]["concept"]
    match, _ = resolve("net", "net cash and equivalents", rows, [])  # no change asked: never the change row
    assert match is None or match.concept == rows[0]["concept"]


def test_the_users_net_picks_the_row_printing_it():
    rows = [_row("Interest income", "us-gaap:InterestAndFeeIncomeLoansAndLeases", "income"),
            _row("Interest income, net", "us-gaap:InterestIncomeExpenseNet", "income")]
    assert resolve("net", "interest income net", rows, [])[0].concept == "us-gaap:InterestIncomeExpenseNet"


def test_a_word_the_rows_concept_excludes_never_tells_that_row_apart():
    rows = [_row("Research and development expense", "us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost",
                 "income"),
            _row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityCurrent")]
    assert resolve("process", "process r&d", rows, [])[0] is None  # "in-process R&D" is what the row leaves out
    assert _one("current deferred revenue", rows) == "us-gaap:ContractWithCustomerLiabilityCurrent"


def test_a_balances_change_noun_asks_the_change_row_never_the_balance_or_its_growth():
    from agent.planning.companies import CompanyDirectory
    from agent.planning.rules import plan_rules
    from agent.retrieval.line_items import line_optional, line_parts
    from tests.test_companies import COVERED, SEC

    directory = CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024]})
    for text in ("Apple (increase) decrease in receivables fiscal 2024", "Apple change in accounts receivable fiscal 2024",
                 "Apple increase in inventories fiscal 2024"):
        (key,) = plan_rules(text, directory=directory).metrics
        assert key.startswith("line:") and {"increase", "change"} & set(line_parts(key)[0].split()), text
    assert plan_rules("Apple accounts receivable fiscal 2024", directory=directory).metrics == ["accounts_receivable"]
    assert not plan_rules("Apple increase in revenue fiscal 2024", directory=directory).metrics[0].startswith("line:")
    # a percentage change is a rate, never the change row's amount
    assert not any(k.startswith("line:") for k in plan_rules("Apple % change in inventories fiscal 2024",
                                                             directory=directory).metrics)
    # the balance's own names are the key's spare words: the change row printed "accounts receivable" fits the
    # user's "receivables", and the balance never does
    key = plan_rules("Apple (increase) decrease in receivables fiscal 2024", directory=directory).metrics[0]
    leftover, context, _ = line_parts(key)
    balance = _row("Accounts receivable, net", "us-gaap:AccountsReceivableNetCurrent")
    change = _row("(Increase) decrease in accounts receivable", "us-gaap:IncreaseDecreaseInAccountsReceivable", "cash")
    match, _ = resolve(leftover, context, [balance, change], [], optional=line_optional(key))
    assert match is not None and match.concept == change["concept"]
    match, _ = resolve(leftover, context, [balance], [], optional=line_optional(key))
    assert match is None


def test_cash_by_operations_is_the_operating_activities_row():
    operating = _row("Net cash provided by operating activities", "us-gaap:NetCashProvidedByUsedInOperatingActivities", "cash")
    cash = _row("Cash and cash equivalents", "us-gaap:CashAndCashEquivalentsAtCarryingValue")
    assert _one("cash provided by operations", [operating, cash]) == operating["concept"]
    assert _one("cash generated by operations", [operating, cash]) == operating["concept"]
    # "continuing operations" stays its own words: never the operating line
    continuing = _row("Income from continuing operations", "us-gaap:IncomeLossFromContinuingOperations", "income")
    operating_income = _row("Operating income", "us-gaap:OperatingIncomeLoss", "income")
    assert _one("income from continuing operations", [continuing, operating_income]) == continuing["concept"]


def test_a_row_printed_word_for_word_as_asked_wins_over_a_near_match():
    from agent.retrieval.line_items import _exactly_printed

    cash_da = _row("Depreciation and amortization", "us-gaap:DepreciationDepletionAndAmortization", "cash")
    note_da = _row("Total depreciation and amortization expense", "wba:DepreciationAndAmortizationContinuingOperations",
                   "other")
    match = _exactly_printed("total depreciation and amortization expense for the", [cash_da, note_da])
    assert match is not None and match.concept == note_da["concept"]
    assert _exactly_printed("depreciation and amortization", [cash_da, note_da]).concept == cash_da["concept"]
    net = _row("Net income from continuing operations attributable to common shareowners",
               "us-gaap:IncomeLossFromContinuingOperations", "income")
    plain = _row("Income from continuing operations attributable to common shareowners",
                 "us-gaap:IncomeLossFromContinuingOperationsAttributableToParent", "income")
    assert _exactly_printed("net income from continuing operations attributable to common shareowners",
                            [net, plain]).concept == net["concept"]
    # one label under two concepts: no exact pick, the usual resolution decides; a balance's change printed under the
    # balance's name is no word-for-word match without a change word
    twice = [_row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityCurrent"),
             _row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityNoncurrent")]
    assert _exactly_printed("deferred revenue", twice) is None
    payable = [_row("Accounts payable", "us-gaap:AccountsPayableCurrent"),
               _row("Accounts payable", "us-gaap:IncreaseDecreaseInAccountsPayable", "cash")]
    assert _exactly_printed("accounts payable", payable).concept == "us-gaap:AccountsPayableCurrent"
    assert _exactly_printed("other", [_row("Other", "us-gaap:OtherAssetsCurrent")]) is None  # one word names nothing


def test_a_word_for_word_row_of_a_tax_note_is_the_tax_figure_only_when_tax_is_asked():
    from agent.retrieval.line_items import _exactly_printed

    tax_row = _row("Gains on equity investments", "us-gaap:DeferredTaxLiabilitiesInvestmentInNoncontrolledAffiliates", "other")
    income = _row("Gains (losses) on equity investments, net", "us-gaap:GainLossOnInvestments", "income")
    assert _exactly_printed("gains on equity investments", [tax_row, income]) is None
    assert _one("gains on equity investments", [tax_row, income]) == income["concept"]


def test_a_bare_total_row_is_never_the_line_asked():
    from agent.retrieval.line_items import LineMatch, same_printed_row

    totals = [_row("Total", "us-gaap:Assets"), _row("Total", "us-gaap:DepreciationAndAmortization")]
    tax = _row("Provision for income tax, net", "us-gaap:IncomeTaxExpenseBenefit", "income")
    match, candidates = resolve("net", "provision income tax net", [*totals, tax], [], total=True)
    assert all(m.concept != "us-gaap:Assets" for m in ([match] if match else []) + candidates)
    assert not same_printed_row([LineMatch(r["concept"], r["label"], "company", "balance") for r in totals])
    # "earnings operations" (the planner took "from") is the row "Earnings from operations"
    earnings = _row("Earnings from operations", "us-gaap:OperatingIncomeLoss", "income")
    match, _ = resolve("operations", "earnings operations", [earnings, *totals], [], total=True)
    assert match is not None and match.concept == earnings["concept"]
