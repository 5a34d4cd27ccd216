"""The condition language of ``batch --where`` / ``--by`` (issue 16): errors name the column,
every function equals a direct count on fixed hands of every deck form, the operators, the
ranges, and the numpy evaluation over a block equals the evaluation deal by deal."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bideuchre import batch as B
from bideuchre.analysis.conditions import ConditionError, parse_condition
from bideuchre.notation import Deal
from bideuchre.rules import DECKS, BidEuchreError, Card, Rank, effective_suit, rank_order

SEATS = {"N": [0], "E": [1], "S": [2], "W": [3], "NS": [0, 2], "EW": [1, 3]}
SUITS = "SHDC"


# ---------------------------------------------------------------------------------------------
# Errors name the position

@pytest.mark.parametrize("expr, column, words", [
    ("bowers(S, H == 2", 13, "expected ',' or ')'"),
    ("trumps(S)", 9, "takes 2 arguments"),
    ("trump(S, H) >= 3", 1, "did you mean trumps"),
    ("bowers(X, H) == 2", 8, "expected a seat"),
    ("trumps(S, NT) > 1", 11, "no trumps"),
    ("trumps(S, Z) > 1", 11, "expected a suit"),
    ("has(S, H9x)", 8, "expected a card"),
    ("aces(N) = 3", 9, "use '=='"),
    ("aces(N) > 1 && aces(S) > 1", 13, "use 'and'"),
    ("aces(S) and aces(N) > 1", 1, "needs a condition"),
    ("aces(N) > 1 and 3", 17, "needs a condition"),
    ("not aces(N)", 5, "needs a condition"),
    ("(aces(N) > 1) + 2", 2, "needs a number"),
    ("aces(N) 3", 9, "missing 'and'"),
    ("(aces(N) > 1", 13, "to close the '(' at column 1"),
    ("aces(N) > 1)", 12, "unmatched ')'"),
    ("", 1, "empty"),
    ("aces(N) >", 10, "ends too soon"),
    ("top(S, H, 8) > 1", 11, "K in top(SEAT, SUIT, K) must be 1 to 7"),
    ("top(S, H, X) > 1", 11, "expected a number K"),
    ("aces(N) > 99999999", 11, "too large"),
    ("__import__('os')", 12, "unexpected \"'\""),
    ("length(S, spades) > 1 or", 25, "ends too soon"),
    ("S > 1", 1, "arguments of a function"),
])
def test_parse_errors_name_the_column_with_a_caret(expr, column, words):
    with pytest.raises(ConditionError) as info:
        parse_condition(expr, "single24", what="--where", want="condition")
    exc = info.value
    assert isinstance(exc, BidEuchreError) and isinstance(exc, ValueError)
    assert exc.column == column, str(exc)
    assert words in exc.message, exc.message
    assert exc.headline.startswith(f"--where at column {column}: ")
    # one line: the headline, then the expression and what follows the fault, quoted
    assert "\n" not in str(exc)
    rest = f"'{expr[column - 1:]}'" if expr[column - 1:] else "the end"
    assert str(exc) == (f"{exc.headline} (in '{expr}' at {rest})" if column > 1 else
                        f"{exc.headline} (at '{expr}')")
    expr_line, caret_line = exc.caret().splitlines()
    assert expr_line == "  " + expr
    assert caret_line == "  " + " " * (column - 1) + "^"


@pytest.mark.parametrize("expr, column", [
    ("trumps(S, H) >= ²", 17),              # a superscript: isdigit() but no number
    ("trumps(S, H) >= ١", 17),              # Arabic-Indic one: was read as 1
    ("aces(N) == ３", 12),                  # a fullwidth three
    ("top(S, H, ２) > 0", 11),
    ("1٠H", 2),                            # an ASCII 1 then an Arabic-Indic zero
])
def test_numbers_are_ascii_digits_only(expr, column):
    with pytest.raises(ConditionError) as info:
        parse_condition(expr, what="--where")
    assert info.value.column == column, str(info.value)
    assert "ASCII digits 0-9" in info.value.message or "expected" in info.value.message, info.value.message


def test_a_tab_keeps_the_caret_under_its_character():
    with pytest.raises(ConditionError) as info:
        parse_condition("aces(N)\t= 3")
    expr_line, caret_line = info.value.caret(indent="").splitlines()
    assert expr_line[len(caret_line) - 1] == "="


def test_a_long_expression_is_quoted_around_its_fault():
    expr = "aces(N) > 1 and " * 40 + "aces(N) = 1"
    with pytest.raises(ConditionError) as info:
        parse_condition(expr)
    text = str(info.value)
    assert len(text) < 200 and text.endswith("at '= 1')") and "(in '…(N) > 1 and aces(N) = 1' at" in text


@pytest.mark.parametrize("deck, expr, column, words", [
    ("double32", "has(S, H9)", 8, "not in the double32 deck"),
    ("double40", "has(S, D9) or has(S, DT)", 8, "not in the double40 deck"),
    ("double32", "top(S, H, 11) >= 1", 11, "1 to 10"),
    ("double48", "top(S, H, 15) >= 1", 11, "1 to 14"),
])
def test_errors_depend_on_the_deck(deck, expr, column, words):
    with pytest.raises(ConditionError) as info:
        parse_condition(expr, deck)
    assert info.value.column == column and words in info.value.message


def test_a_number_where_a_condition_is_wanted():
    with pytest.raises(ConditionError, match="needs a condition, but trumps\\(S, H\\) is a number"):
        parse_condition("trumps(S, H)", want="condition")
    assert parse_condition("trumps(S, H)", want="number").kind == "number"
    assert parse_condition("trumps(S, H) > 2", want="number").kind == "condition"
    assert parse_condition("has(S, HJ)", want="condition").kind == "condition"   # held


def test_limits_keep_the_parser_bounded():
    with pytest.raises(ConditionError, match="nested more than"):
        parse_condition("(" * 200 + "true" + ")" * 200)
    with pytest.raises(ConditionError, match="nested more than"):
        parse_condition("not " * 200 + "true")
    with pytest.raises(ConditionError, match="longer than"):
        parse_condition("aces(N) + " * 300 + "1 > 0")
    with pytest.raises(ConditionError, match="one line"):
        parse_condition("aces(N) > 0\nor true")


# ---------------------------------------------------------------------------------------------
# Every function against a direct count

def direct(name: str, deal: Deal, seat: str, arg=None, k=None) -> int:
    """The function counted straight from the hands with the rules' own functions."""
    cards = [c for s in SEATS[seat] for c in deal.hands[s]]
    deck = deal.deck
    if name == "trumps":
        return sum(effective_suit(c, arg) == arg for c in cards)
    if name == "bowers":
        return sum(c.rank == Rank.J and effective_suit(c, arg) == arg for c in cards)
    if name == "length":
        return sum(c.suit == arg for c in cards)
    if name == "has":
        return cards.count(arg)
    if name == "aces":
        return sum(c.rank == Rank.A for c in cards)
    if name == "top":
        # the deck's trumps as physical cards (each copy), highest first; the first k of them
        physical = sorted((c for c in deck.card_ids for _ in range(deck.copies) if effective_suit(c, arg) == arg),
                          key=lambda c: -rank_order(c, arg))
        return sum((Counter(cards) & Counter(physical[:k])).values())
    raise AssertionError(name)


def deals_of(deck: str, n: int, seed: int) -> list[Deal]:
    return [r.deal for r in B.generate_records(n, seed, deck)]


@pytest.mark.parametrize("deck", list(DECKS))
def test_every_function_equals_a_direct_count(deck):
    d = DECKS[deck]
    deals = deals_of(deck, 24, 11)
    counts = np.array([x.counts() for x in deals])
    cases = []
    for seat in SEATS:
        for suit in range(4):
            for name in ("trumps", "bowers", "length"):
                cases.append((f"{name}({seat}, {SUITS[suit]})", (name, seat, suit, None)))
            n_trumps = len([c for c in d.card_ids if effective_suit(c, suit) == suit]) * d.copies
            for k in sorted({1, 2, 3, n_trumps}):
                cases.append((f"top({seat}, {SUITS[suit]}, {k})", ("top", seat, suit, k)))
        for card in (d.card_ids[0], d.card_ids[-1], Card.HJ, Card.DA):
            cases.append((f"has({seat}, {card})", ("has", seat, card, None)))
        cases.append((f"aces({seat})", ("aces", seat, None, None)))
    for text, (name, seat, arg, k) in cases:
        cond = parse_condition(text, deck)
        want = [direct(name, x, seat, arg, k) for x in deals]
        assert cond.evaluate_counts(counts).tolist() == want, text
        assert [cond.evaluate(x) for x in deals[:2]] == want[:2], text
        lo, hi = cond.bounds
        assert all(lo <= v <= hi for v in want), (text, cond.bounds)


def test_functions_on_fixed_hands():
    # N holds SJ ST HQ DJ D9 CJ
    deal = Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    expect = {"trumps(N, S)": 3, "bowers(N, S)": 2, "length(N, spades)": 2, "has(N, SJ)": 1,
              "top(N, S, 3)": 2, "top(N, S, 1)": 1, "aces(N)": 0, "trumps(N, D)": 2,
              "bowers(N, H)": 1, "trumps(N, H)": 2, "aces(S)": 2, "aces(NS)": 2, "aces(EW)": 2,
              "has(NS, SA)": 1, "length(EW, ♣)": 5, "top(E, H, 2)": 1, "top(W, C, 7)": 2}
    for text, value in expect.items():
        assert parse_condition(text).evaluate(deal) == value, text


def test_double_deck_copies_count_as_cards():
    # W holds SK SQ HJ DK CK CK CJ CJ
    deal = Deal.from_pbn("N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ", "double32")
    expect = {"trumps(W, C)": 4, "bowers(W, C)": 2, "bowers(W, S)": 2, "has(W, CJ)": 2,
              "top(W, C, 2)": 2, "top(W, C, 3)": 2,     # CJ CJ SJ: W holds both right bowers
              "top(W, S, 2)": 0, "top(W, S, 3)": 1,     # SJ SJ CJ: one left bower is third
              "top(W, S, 4)": 2, "length(W, clubs)": 4, "aces(W)": 0, "aces(S)": 4,
              "has(W, CJ) == 2 and top(W, S, 3) == 1": True}
    for text, value in expect.items():
        assert parse_condition(text, "double32").evaluate(deal) == value, text


# ---------------------------------------------------------------------------------------------
# Operators, precedence, ranges

def test_operators_match_python_on_random_deals():
    deals = deals_of("single24", 300, 5)
    counts = np.array([x.counts() for x in deals])
    a, b, c = (parse_condition(t).evaluate_counts(counts) for t in ("aces(N)", "trumps(S, H)", "bowers(E, D)"))
    exprs = {
        "aces(N) + trumps(S, H) - bowers(E, D)": a + b - c,
        "-aces(N) + 3": -a + 3,
        "aces(N) >= 1 and trumps(S, H) > 2 or bowers(E, D) == 1": ((a >= 1) & (b > 2)) | (c == 1),
        "aces(N) >= 1 and (trumps(S, H) > 2 or bowers(E, D) == 1)": (a >= 1) & ((b > 2) | (c == 1)),
        "not aces(N) >= 1 or trumps(S, H) != 2": ~(a >= 1) | (b != 2),
        "not (aces(N) >= 1 or trumps(S, H) != 2)": ~((a >= 1) | (b != 2)),
        "1 <= aces(N) <= 2": (1 <= a) & (a <= 2),
        "aces(N) < trumps(S, H)": a < b,
        "TRUMPS(s, hearts) == 2 AND Not false": b == 2,
    }
    for text, want in exprs.items():
        got = parse_condition(text).evaluate_counts(counts)
        assert got.tolist() == np.asarray(want).tolist(), text


def test_ranges_find_conditions_that_can_never_hold():
    assert parse_condition("trumps(S, H) > 6").never               # a hand has 6 cards
    assert not parse_condition("trumps(S, H) > 6", "double48").never
    assert parse_condition("bowers(S, H) > 2").never
    assert not parse_condition("bowers(S, H) > 2", "double32").never
    assert parse_condition("aces(N) > 1 and false").never
    assert not parse_condition("trumps(NS, H) == 7").never
    assert parse_condition("trumps(NS, H) == 8").never            # 7 heart trumps in single24
    assert parse_condition("false or top(S, H, 2) == 3").never
    assert not parse_condition("not (trumps(S, H) > 6)").never
    c = parse_condition("trumps(S, H) > 6 and aces(N) == 0")
    assert c.ranges() == "trumps(S, H) 0..6, aces(N) 0..4"


def test_canonical_form_reads_back():
    c = parse_condition("not bowers(s,♥)==2 and 1<=TRUMPS(NS , hearts)")
    assert c.canonical() == "(not (bowers(S, H) == 2)) and (1 <= trumps(NS, H))"
    again = parse_condition(c.canonical())
    deals = deals_of("single24", 100, 3)
    counts = np.array([x.counts() for x in deals])
    assert again.evaluate_counts(counts).tolist() == c.evaluate_counts(counts).tolist()


@pytest.mark.parametrize("expr", [
    "-" * 31 + "0",                                       # canonical -(-(...)) nested 62 deep
    "-" * 60 + "0",
    "not " * 59 + "aces(N) > 1",
    "(" * 59 + "aces(N) > 1" + ")" * 59,
    "-(" * 30 + "aces(N)" + ")" * 30 + " > 0",
    "aces(n)>1 and " * 140 + "aces(n)>1",                 # 1,973 characters; longer written out
])
def test_every_accepted_expression_reads_back_from_its_canonical_form(expr):
    deals = deals_of("single24", 50, 5)
    counts = np.array([x.counts() for x in deals])
    try:
        c = parse_condition(expr)
    except ConditionError as exc:      # refused only for the written-out form's nesting or length
        assert "when written out in full" in exc.message, exc.message
        return
    again = parse_condition(c.canonical())
    assert again.canonical() == c.canonical()
    assert again.evaluate_counts(counts).tolist() == c.evaluate_counts(counts).tolist()


def test_written_out_limits_refuse_what_would_not_read_back():
    with pytest.raises(ConditionError, match="nested more than 60 deep when written out"):
        parse_condition("not " * 60 + "aces(N) > 1")       # 60 deep as typed, 61 written out
    with pytest.raises(ConditionError, match="longer than 2,000 characters when written out"):
        parse_condition("aces(n)>1 and " * 140 + "aces(n)>1")
    assert parse_condition("-" * 31 + "0").canonical() == "-" * 31 + "0"
    assert parse_condition("not not aces(N) > 1").canonical() == "not not (aces(N) > 1)"


def test_evaluate_counts_checks_its_shape():
    with pytest.raises(ValueError, match=r"\(n, 4, 24\)"):
        parse_condition("aces(N) > 1").evaluate_counts(np.zeros((3, 24)))


def test_cards_in_every_notation():
    deal = Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    for card in ("ST", "S10", "10S", "TS", "t♠", "10♠"):
        assert parse_condition(f"has(N, {card})").evaluate(deal) == 1, card
    assert parse_condition("has(N, SQ)").evaluate(deal) == 0
