"""A quick fuzz test (hypothesis, derandomized: the same examples every run) over the parsers
(card, hand, deal, records, PTN), the auction, the API constructors (Deal, Position,
solve_position, dd_table, preset options) and the command line's argument handling: anything
but a ``BidEuchreError`` escaping fails it; the command line must end with 0 or 2 and one
line, never a traceback or an internal error (issue 14, "Keep it so").

The longer coverage-guided campaign is ``benchmarks/fuzz_atheris.py`` (a million executions a
target).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bideuchre import BidEuchreError, Deal, Position, dd_table, get_preset, solve_position
from bideuchre.analysis.auction import Auction, parse_bid
from bideuchre.notation import parse_cards, parse_hand
from bideuchre.records import parse_ptn, parse_records
from bideuchre.rules import DECKS, PRESETS, Card, parse_seat, parse_strain, read_int

settings.register_profile("fuzz", derandomize=True, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))
FUZZ = settings.get_profile("fuzz")


def fuzz(examples: int) -> settings:
    """The fuzz profile (derandomized, no deadline, no example database) with a fixed number
    of examples."""
    return settings(FUZZ, max_examples=examples)

D = "N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9"
DEAL = Deal.from_pbn(D)

# text near the notation: its own alphabet, with a little of everything else
NOTATION = st.lists(st.sampled_from(list("NESWnesw:. -AKQJT9810SHDC♠♥♦♣shdc,\"[]\n")
                                    + ["10", "♤", "²", "٣", "\x00", "é"]), max_size=60).map("".join)
ANY_TEXT = st.one_of(NOTATION, st.text(max_size=40))
SCALARS = st.one_of(st.integers(-5, 30), st.integers(), st.booleans(), st.none(),
                    st.floats(allow_nan=True), ANY_TEXT, st.binary(max_size=4))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=7),
                                                       st.tuples(inner, inner),
                                                       st.dictionaries(st.text(max_size=3), inner, max_size=2)),
                      max_leaves=12)


def allowed(call, *args, **kw):
    """Call; only BidEuchreError may escape."""
    try:
        return call(*args, **kw)
    except BidEuchreError:
        return None


# ---------------------------------------------------------------------------------------------
# parsers

@fuzz(400)
@given(ANY_TEXT)
def test_card_and_hand_parsers(text):
    card = allowed(Card.parse, text)
    if card is not None:
        assert Card.parse(str(card)) == card
    allowed(parse_cards, text)
    allowed(parse_hand, text)


@fuzz(400)
@given(st.one_of(NOTATION, st.builds(lambda s, hs: f"{s}:" + " ".join(hs),
                                     st.sampled_from("NESWx"),
                                     st.lists(NOTATION.map(lambda t: t.replace(" ", "")), max_size=5))),
       st.sampled_from(list(DECKS)), st.sampled_from([None, "N", "E", "S", "W"]))
def test_deal_parser(text, deck, dealer):
    deal = allowed(Deal.from_pbn, text, deck, dealer)
    if deal is not None:
        assert Deal.from_pbn(deal.pbn(), deck, deal.dealer) == deal


TAGS = ["Event", "Deck", "Preset", "Dealer", "Deal", "Declarer", "Strain", "Bid", "Lone",
        "Auction", "Play", "GameOptionsJson", "Contract"]
TAG_VALUES = st.one_of(
    ANY_TEXT, st.sampled_from([D, "N", "E", "H", "NT", "4", "12", "²", "9" * 5000, "single24",
                               "double32", "standard", "-", '{\\"numDecks\\": 2, \\"deckSize\\": 16}',
                               '\\"[1]\\"', '{\\"numDecks\\": 2, \\"deckSize\\": \\"x\\"}', "4♥",
                               "NTAlone", "[[[[[[", "S:- - - -"]))
LINES = st.lists(st.one_of(
    st.builds(lambda t, v: f'[{t} "{v}"]', st.sampled_from(TAGS), TAG_VALUES),
    st.lists(st.sampled_from(["SA", "S9", "HK", "DJ", "CJ", "-", "pass", "4", "x", "H9"]),
             max_size=5).map(" ".join),
    st.just(""), ANY_TEXT), max_size=14).map("\n".join)
# most records start with a deal (a good one or not), so the tags after it are read too
SPECIAL = ["N", "E", "H", "NT", "4", "12", "²", "٣", "9" * 5000, "double32", "standard", "-",
           '{\\"numDecks\\": 2, \\"deckSize\\": \\"x\\"}', '\\"[1]\\"', "4♥", "NTAlone", "?"]
TAG_LINES = st.lists(st.builds(lambda t, v: f'[{t} "{v}"]', st.sampled_from(TAGS),
                               st.sampled_from(SPECIAL)), max_size=5).map("\n".join)
RECORD = st.one_of(LINES, st.builds(lambda deal, rest: f'[Deal "{deal}"]\n{rest}',
                                    st.one_of(st.just(D), NOTATION), st.one_of(LINES, TAG_LINES)))
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                              st.text(max_size=4), st.sampled_from([2, "2", 16, 20, "16", 16.0])),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.sampled_from(["numDecks", "deckSize", "x"]),
                                                            inner, max_size=3)), max_leaves=6)


@fuzz(500)
@given(RECORD)
def test_record_parsers(text):
    allowed(parse_records, text, "fuzz.txt")
    allowed(parse_ptn, text, "fuzz.ptn")


@fuzz(200)
@given(JSON)
def test_ptn_game_options(options):
    import json
    text = json.dumps(options).replace('"', '\\"')
    allowed(parse_ptn, f'[GameOptionsJson "{text}"]\n[Deal "{D}"]\n', "fuzz.ptn")


@fuzz(300)
@given(st.one_of(ANY_TEXT, st.lists(st.sampled_from(["pass", "p", "3", "4", "4H", "6", "7", "12",
                                                     "24", "alone", "moonshot", "two-card", "9" * 5000,
                                                     "x", "٣"]), max_size=6).map(" ".join)),
       st.sampled_from(list(PRESETS)), st.sampled_from("NESW"))
def test_auction(text, preset, dealer):
    auction = allowed(Auction.parse, text, preset, dealer)
    if auction is not None:
        auction.legal_actions()
    allowed(parse_bid, text, preset)
    allowed(read_int, text, "fuzz")


# ---------------------------------------------------------------------------------------------
# the API's constructors and entry points, with values of every kind

@fuzz(300)
@given(VALUES, st.one_of(st.sampled_from(list(DECKS)), VALUES), st.one_of(st.none(), VALUES))
def test_deal_constructor(hands, deck, dealer):
    allowed(Deal, hands, deck, dealer)
    allowed(parse_seat, dealer)
    allowed(parse_strain, dealer)


@fuzz(300)
@given(VALUES, VALUES, VALUES, st.one_of(st.none(), VALUES))
def test_position_and_solve(strain, leader, played, lone):
    pos = allowed(Position, DEAL, strain, leader, played, lone)
    if pos is not None:
        tricks = solve_position(pos)
        assert sum(tricks.values()) == 6
    allowed(solve_position, played)


OPTIONS = ["min_bid", "max_bid", "target", "hands", "set_penalty", "stick", "dealer_must_bid",
           "first_lead", "strain_named", "strains", "deck", "lone_bids", "nonsense"]


@fuzz(200)
@given(st.sampled_from(list(PRESETS)), st.sampled_from(OPTIONS), VALUES,
       st.one_of(st.none(), VALUES), st.one_of(st.none(), VALUES))
def test_preset_options_and_dd_table(preset, option, value, dealer, strains):
    p = allowed(get_preset(preset).with_options, **{option: value})
    if p is not None and p.deck == DEAL.deck:
        allowed(dd_table, DEAL, p, dealer, strains)
    allowed(dd_table, value, preset)
    allowed(get_preset, value)


# ---------------------------------------------------------------------------------------------
# the command line's argument handling

CLI_OPTIONS = {
    "solve": ["--preset", "--dealer", "--deck", "--strain", "--leader", "--played", "--lone",
              "--alone", "--json"],
    "par": ["--preset", "--dealer", "--json"],
    "explain": ["--strain", "--leader", "--played", "--lone", "--preset", "--dealer", "--deck",
                "--json"],
    "bid": ["--seat", "--dealer", "--preset", "--auction", "--known", "--seed", "--score",
            "--target", "--json", "--index", "--record"],
    "replay": ["--index", "--json"],
}
CLI_WORDS = ["N", "E", "S", "W", "H", "NT", "NTL", "standard", "pepper", "double32", "racehorse",
             "double48", "single24", "double40", "SA SK", "pass 4", "24-18", "-1", "0", "1", "-",
             D, "AJ.KQ..JT", "E:SA", "9" * 5000, "N:... ... ... ...", "positions"]


@pytest.fixture(scope="module")
def cli():
    from typer.testing import CliRunner

    from bideuchre.cli.app import main
    runner = CliRunner()

    def run(argv):
        with runner.isolation(input="") as streams:
            try:
                main(argv)
                code = 0
            except SystemExit as exc:
                code = exc.code
            text = b"".join(s.getvalue() for s in streams if hasattr(s, "getvalue"))
        return code, text.decode("utf-8", "replace")
    return run


@fuzz(150)
@given(st.data())
def test_cli_arguments(cli, data):
    command = data.draw(st.sampled_from(list(CLI_OPTIONS)))
    words = data.draw(st.lists(st.one_of(st.sampled_from(CLI_OPTIONS[command]),
                                         st.sampled_from(CLI_WORDS), st.text(max_size=12)),
                               max_size=6))
    argv = [command, *words]
    if command == "bid":
        argv += ["--samples", "2"]      # the advice itself is not what is fuzzed here
    code, output = cli(argv)
    assert code in (0, 2), (argv, code, output)
    assert "Traceback" not in output and "internal error" not in output, (argv, output)
