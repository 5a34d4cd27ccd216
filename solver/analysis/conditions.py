"""Conditions on hands: a small, safe language for choosing deals and grouping results
(``bideuchre batch --where`` and ``--by``, issue 16).

Not Python: a hand-written tokenizer and a recursive-descent parser build a tree of a few node
kinds, checked for types and ranges when it is parsed, and evaluated with numpy on the card
counts of a block of deals at once (``(n, 4 seats, 24 cards)``, the batch's own arrays) or on
one :class:`~bideuchre.notation.Deal`.  Nothing in an expression can name a Python object.

The language::

    expr     := or
    or       := and ("or" and)*
    and      := not ("and" not)*
    not      := "not" not | compare
    compare  := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)*   -- chains: 2 <= x <= 4
    sum      := unary (("+" | "-") unary)*
    unary    := "-" unary | atom
    atom     := INTEGER | "true" | "false" | NAME "(" arg ("," arg)* ")" | "(" expr ")"

Functions (a SEAT is ``N E S W``, or a side ``NS EW`` for both hands together; a SUIT is
``S H D C``, ``spades hearts diamonds clubs`` or ``♠ ♥ ♦ ♣``; a CARD is ``HJ``, ``JH``,
``10H``/``HT``; names are read in any case).  The jacks follow RULES.md §1: with SUIT trump the
right bower is its jack, the left bower the other jack of its colour, and the left bower *is* a
trump (:func:`bideuchre.rules.effective_suit`).  In double decks every copy counts:

- ``trumps(SEAT, SUIT)``: cards that are trumps with SUIT trump, the left bower included;
- ``bowers(SEAT, SUIT)``: right and left bowers of SUIT held (0–2; 0–4 in double decks);
- ``length(SEAT, SUIT)``: cards of the printed suit (the left bower counts in its own suit);
- ``has(SEAT, CARD)``: copies of CARD held (0 or 1; 0–2 in double decks), so ``has(S, HJ)``
  alone is a condition and ``has(S, HJ) == 2`` asks for both copies;
- ``top(SEAT, SUIT, K)``: how many of the K highest trumps of SUIT the seat holds.  The trumps
  are taken as cards in the deck, highest first (right bower, left bower, A, K, Q, 10, 9 of the
  deck form), each copy of a double deck a card of its own: in ``double48`` the 3 highest are
  both right bowers and one left bower, and a seat holding both left bowers counts one of them.
  So ``top(S, H, K) == K`` says South holds the K highest, whatever the deck;
- ``aces(SEAT)``: aces held (copies counted).

Values are integers; comparisons, ``and``, ``or``, ``not``, ``true`` and ``false`` are
conditions; ``and`` and ``or`` take conditions, ``+`` and ``-`` numbers.  A condition used as a
number (``--by``) is 0 or 1.  Examples::

    bowers(S, H) == 2 and trumps(S, H) >= 3
    trumps(NS, spades) >= 6 or top(N, S, 2) == 2
    2 <= aces(E) <= 3 and not has(E, SA)
    trumps(S, H) + bowers(S, H)                          -- a number, for --by

Errors are :class:`ConditionError` (a :class:`~bideuchre.rules.BidEuchreError`): one line
naming the column of the expression and quoting the place (``in 'bowers(S, H == 2' at '== 2'``).
Numbers are ASCII digits (``²`` or Arabic-Indic ``١`` are refused, as the README says for bids).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
import numpy as np

from ..notation import Deal
from ..rules import (
    BidEuchreError, Card, DeckForm, NotationError, Rank, Suit, effective_suit, get_deck,
    rank_order,
)

__all__ = ["ConditionError", "Condition", "parse_condition", "FUNCTIONS"]

MAX_LENGTH = 2000     # characters in an expression
MAX_DEPTH = 60        # nesting of parentheses, calls and operators
MAX_INT = 1_000_000   # integer literals (all values are card counts: small)
_SHOWN = 40           # characters of the expression an error quotes around its fault
_DIGITS = "0123456789"    # ASCII digits only: '²' or Arabic-Indic '١' are no numbers here


class ConditionError(BidEuchreError):
    """An expression of the condition language that cannot be read or can never be used:
    bad syntax, an unknown function or name, an argument of the wrong kind, a number where a
    condition is needed.  ``expr`` is the expression, ``pos`` the 0-based offset of the fault
    (``column`` 1-based); ``str()`` is one line: the headline, then the place quoted
    (:meth:`place`); :meth:`caret` gives the two-line form with a ``^`` under the fault."""

    def __init__(self, message: str, expr: str, pos: int, what: str = "condition"):
        self.message = message
        self.expr = expr
        self.pos = max(0, min(pos, len(expr)))
        self.what = what
        super().__init__(f"{self.headline} ({self.place()})")

    @property
    def column(self) -> int:
        return self.pos + 1

    @property
    def headline(self) -> str:
        """The message without the place: ``--where at column 9: expected ')' ...``."""
        return f"{self.what} at column {self.column}: {self.message}"

    def place(self, width: int = _SHOWN) -> str:
        """Where the fault is, on one line: ``in 'bowers(S, H == 2' at '== 2'`` (the
        expression and what follows the fault, each cut to about ``width`` characters around
        it, quoted so that a tab or other control character shows as an escape)."""
        before, after = self.expr[:self.pos], self.expr[self.pos:]
        half = max(8, width // 2)
        if len(self.expr) <= width:
            shown, rest = self.expr, after
        else:
            shown = (("…" + before[-half:]) if len(before) > half else before) + \
                ((after[:half] + "…") if len(after) > half else after)
            rest = after[:half] + ("…" if len(after) > half else "")
        rest = _quote(rest) if rest else "the end"
        return f"in {_quote(shown)} at {rest}" if before else f"at {_quote(shown)}"

    def caret(self, indent: str = "  ") -> str:
        """Two lines: the expression and a ``^`` under the fault (tabs expanded, so the caret
        stands under its character)."""
        return f"{indent}{self.expr.expandtabs()}\n{indent}{' ' * len(self.expr[:self.pos].expandtabs())}^"


def _quote(text: str) -> str:
    """``text`` in quotes on one line: control characters (tab, NUL) as Python escapes."""
    return repr(text) if not text.isprintable() else f"'{text}'"


# ---------------------------------------------------------------------------------------------
# Tokens

_PUNCT = ("==", "!=", "<=", ">=", "<", ">", "(", ")", ",", "+", "-")
_SYMBOLS = "♠♥♦♣♤♡♢♧"
_HINTS = {"=": "use '==' to compare", "&": "use 'and'", "|": "use 'or'", "!": "use 'not' (or '!=')",
          "*": "only + and - are allowed", "/": "only + and - are allowed"}


@dataclass(frozen=True)
class _Tok:
    kind: str        # "int", "name", "op", "end"
    text: str
    pos: int


def _tokens(expr: str, what: str) -> list[_Tok]:
    out: list[_Tok] = []
    i, n = 0, len(expr)
    while i < n:
        ch = expr[i]
        if ch.isspace():
            i += 1
            continue
        if ch in _DIGITS:
            j = i
            while j < n and expr[j] in _DIGITS:
                j += 1
            if j < n and (expr[j].isalpha() or expr[j] in _SYMBOLS):   # 10H: a card
                while j < n and (expr[j].isalnum() or expr[j] in _SYMBOLS or expr[j] == "_"):
                    j += 1
                out.append(_Tok("name", expr[i:j], i))
            else:
                out.append(_Tok("int", expr[i:j], i))
            i = j
            continue
        if ch.isalpha() or ch == "_" or ch in _SYMBOLS:
            j = i + 1
            while j < n and (expr[j].isalnum() or expr[j] == "_" or expr[j] in _SYMBOLS):
                j += 1
            out.append(_Tok("name", expr[i:j], i))
            i = j
            continue
        for p in _PUNCT:
            if expr.startswith(p, i):
                out.append(_Tok("op", p, i))
                i += len(p)
                break
        else:
            hint = _HINTS.get(ch) or ("numbers are written with the ASCII digits 0-9"
                                      if ch.isnumeric() else None)
            raise ConditionError(f"unexpected {ch!r}" + (f": {hint}" if hint else ""), expr, i, what)
    out.append(_Tok("end", "", n))
    return out


# ---------------------------------------------------------------------------------------------
# The tree.  Each node knows its type ("int" or "bool"), its range over full deals of the deck
# (lo, hi: used to refuse a condition that can never hold) and evaluates on counts (n, 4, 24).

class _Node:
    type = "int"
    pos = 0

    def eval(self, counts: np.ndarray) -> np.ndarray:          # pragma: no cover - abstract
        raise NotImplementedError

    def bounds(self) -> tuple[int, int]:                         # pragma: no cover - abstract
        raise NotImplementedError

    def calls(self) -> list["_Call"]:
        return []


@dataclass
class _Num(_Node):
    value: int
    pos: int
    type: str = "int"

    def eval(self, counts):
        return np.full(len(counts), self.value, dtype=np.int64)

    def bounds(self):
        return self.value, self.value

    def __str__(self):
        if self.type == "bool":
            return "true" if self.value else "false"
        return str(self.value)


@dataclass
class _Call(_Node):
    """A function of the hands: counts of the seats' cards weighted by ``weights`` (24,), or,
    with ``slots``, each card counted at most ``slots[card]`` times (``top``)."""

    name: str
    text: str           # as written back: trumps(S, H)
    seats: tuple[int, ...]
    weights: np.ndarray
    slots: np.ndarray | None
    hi: int
    pos: int
    type: str = "int"

    def eval(self, counts):
        held = counts[:, self.seats[0], :].astype(np.int64)
        for s in self.seats[1:]:
            held = held + counts[:, s, :]
        if self.slots is not None:
            return np.minimum(held, self.slots).sum(axis=1)
        return held @ self.weights

    def bounds(self):
        return 0, self.hi

    def calls(self):
        return [self]

    def __str__(self):
        return self.text


@dataclass
class _Neg(_Node):
    x: _Node
    pos: int
    type: str = "int"

    def eval(self, counts):
        return -self.x.eval(counts)

    def bounds(self):
        lo, hi = self.x.bounds()
        return -hi, -lo

    def calls(self):
        return self.x.calls()

    def __str__(self):
        return f"-{self.x}" if isinstance(self.x, _Neg) else f"-{_paren(self.x)}"     # --x: as read


@dataclass
class _Sum(_Node):
    items: list[_Node]
    signs: list[int]       # +1 / -1 per item (the first +1)
    pos: int
    type: str = "int"

    def eval(self, counts):
        total = np.zeros(len(counts), dtype=np.int64)
        for sign, x in zip(self.signs, self.items):
            total = total + sign * x.eval(counts).astype(np.int64)
        return total

    def bounds(self):
        lo = hi = 0
        for sign, x in zip(self.signs, self.items):
            a, b = x.bounds()
            if sign > 0:
                lo, hi = lo + a, hi + b
            else:
                lo, hi = lo - b, hi - a
        return lo, hi

    def calls(self):
        return [c for x in self.items for c in x.calls()]

    def __str__(self):
        parts = [_paren(self.items[0])]
        for sign, x in zip(self.signs[1:], self.items[1:]):
            parts.append(("+ " if sign > 0 else "- ") + _paren(x))
        return " ".join(parts)


_CMP = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
        ">": np.greater, ">=": np.greater_equal}


def _cmp_bounds(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """(lo, hi) of a comparison as 0/1 from its operands' ranges: (1, 1) always, (0, 0) never."""
    (alo, ahi), (blo, bhi) = a, b
    always = {"==": alo == ahi == blo == bhi, "!=": ahi < blo or bhi < alo,
              "<": ahi < blo, "<=": ahi <= blo, ">": alo > bhi, ">=": alo >= bhi}[op]
    never = {"==": ahi < blo or bhi < alo, "!=": alo == ahi == blo == bhi,
             "<": alo >= bhi, "<=": alo > bhi, ">": ahi <= blo, ">=": ahi < blo}[op]
    return (1 if always else 0), (0 if never else 1)


@dataclass
class _Compare(_Node):
    items: list[_Node]
    ops: list[str]
    pos: int
    type: str = "bool"

    def eval(self, counts):
        vals = [x.eval(counts) for x in self.items]
        out = _CMP[self.ops[0]](vals[0], vals[1])
        for k in range(1, len(self.ops)):
            out &= _CMP[self.ops[k]](vals[k], vals[k + 1])
        return out

    def bounds(self):
        lo, hi = 1, 1
        for k, op in enumerate(self.ops):
            a, b = _cmp_bounds(op, self.items[k].bounds(), self.items[k + 1].bounds())
            lo, hi = min(lo, a), min(hi, b)
        return lo, hi

    def calls(self):
        return [c for x in self.items for c in x.calls()]

    def __str__(self):
        parts = [_paren(self.items[0])]
        for op, x in zip(self.ops, self.items[1:]):
            parts += [op, _paren(x)]
        return " ".join(parts)


@dataclass
class _Not(_Node):
    x: _Node
    pos: int
    type: str = "bool"

    def eval(self, counts):
        return ~self.x.eval(counts).astype(bool)

    def bounds(self):
        lo, hi = self.x.bounds()
        return 1 - hi, 1 - lo

    def calls(self):
        return self.x.calls()

    def __str__(self):
        return f"not {self.x}" if isinstance(self.x, _Not) else f"not {_paren(self.x)}"


@dataclass
class _Logic(_Node):
    op: str             # "and" / "or"
    items: list[_Node]
    pos: int
    type: str = "bool"

    def eval(self, counts):
        out = self.items[0].eval(counts).astype(bool)
        for x in self.items[1:]:
            out = (out & x.eval(counts).astype(bool)) if self.op == "and" else (out | x.eval(counts).astype(bool))
        return out

    def bounds(self):
        bs = [x.bounds() for x in self.items]
        if self.op == "and":
            return min(b[0] for b in bs), min(b[1] for b in bs)
        return max(b[0] for b in bs), max(b[1] for b in bs)

    def calls(self):
        return [c for x in self.items for c in x.calls()]

    def __str__(self):
        return f" {self.op} ".join(_paren(x) for x in self.items)


def _holds(node: _Node) -> bool:
    """``has(SEAT, CARD)`` may stand alone as a condition: the card is held."""
    return isinstance(node, _Call) and node.name == "has"


def _as_condition(node: _Node) -> _Node:
    return _Compare([node, _Num(0, node.pos)], ["!="], node.pos)


def _paren(x: _Node) -> str:
    return str(x) if isinstance(x, (_Num, _Call)) else f"({x})"


def _written_depth(node: _Node) -> int:
    """The nesting the parser counts (parentheses, unary '-' and 'not') when it reads
    ``str(node)``, the canonical form: an expression is refused when this passes MAX_DEPTH,
    so that every accepted expression's canonical form reads back."""
    def inner(x: _Node) -> int:          # the depth of x where it stands, parenthesised or not
        return _written_depth(x) if isinstance(x, (_Num, _Call)) else 1 + _written_depth(x)

    if isinstance(node, (_Neg, _Not)):
        return 1 + (_written_depth(node.x) if isinstance(node.x, type(node)) else inner(node.x))
    if isinstance(node, (_Sum, _Compare, _Logic)):
        return max(inner(x) for x in node.items)
    return 0


# ---------------------------------------------------------------------------------------------
# Functions and their arguments

_SEATS = {"N": (0,), "E": (1,), "S": (2,), "W": (3,), "NS": (0, 2), "EW": (1, 3)}
_SUIT_NAMES = {"S": 0, "H": 1, "D": 2, "C": 3, "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3,
               "SPADE": 0, "HEART": 1, "DIAMOND": 2, "CLUB": 3,
               "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}

#: name -> (argument kinds, what it counts); the help text and the errors use these
FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "trumps": (("SEAT", "SUIT"), "trumps held with SUIT trump, the left bower included"),
    "bowers": (("SEAT", "SUIT"), "right and left bowers of SUIT held"),
    "length": (("SEAT", "SUIT"), "cards of the printed SUIT held (the left bower in its own suit)"),
    "has": (("SEAT", "CARD"), "copies of CARD held"),
    "top": (("SEAT", "SUIT", "K"), "how many of the K highest trumps of SUIT are held"),
    "aces": (("SEAT",), "aces held"),
}



def _trump_order(deck: DeckForm, suit: int) -> list[Card]:
    """The trumps of ``suit`` in ``deck``, highest first (RULES.md §1: right bower, left bower,
    A K Q 10 9 of the deck form's ranks)."""
    cards = [c for c in deck.card_ids if effective_suit(c, suit) == suit]
    return sorted(cards, key=lambda c: -rank_order(c, suit))


# ---------------------------------------------------------------------------------------------
# The parser

class _Parser:
    def __init__(self, expr: str, deck: DeckForm, what: str):
        self.expr, self.deck, self.what = expr, deck, what
        self.toks = _tokens(expr, what)
        self.i = 0
        self.depth = 0

    # -- helpers ----------------------------------------------------------------------------
    def error(self, message: str, pos: int) -> ConditionError:
        return ConditionError(message, self.expr, pos, self.what)

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def is_word(self, word: str) -> bool:
        return self.tok.kind == "name" and self.tok.text.lower() == word

    def describe(self, t: _Tok) -> str:
        return "the end" if t.kind == "end" else repr(t.text)

    def expect(self, text: str, context: str) -> _Tok:
        if self.tok.kind == "op" and self.tok.text == text:
            return self.take()
        raise self.error(f"expected {text!r} {context}, found {self.describe(self.tok)}", self.tok.pos)

    def need(self, node: _Node, type_: str, role: str) -> _Node:
        if node.type == type_:
            return node
        if type_ == "bool" and _holds(node):
            return _as_condition(node)
        if type_ == "bool":
            raise self.error(f"{role} needs a condition, but {node} is a number "
                             f"(compare it, like {node} >= 2)", node.pos)
        raise self.error(f"{role} needs a number, but {node} is a condition", node.pos)

    def nest(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"nested more than {MAX_DEPTH} deep", pos)

    # -- grammar ----------------------------------------------------------------------------
    def parse(self) -> _Node:
        if self.tok.kind == "end":
            raise self.error("empty expression", 0)
        node = self.p_or()
        if self.tok.kind != "end":
            t = self.tok
            hint = ""
            if t.kind == "op" and t.text == ")":
                hint = " (an unmatched ')')"
            elif t.kind in ("int", "name") or (t.kind == "op" and t.text == "("):
                hint = " (a missing 'and', 'or' or operator before it?)"
            raise self.error(f"unexpected {self.describe(t)}{hint}", t.pos)
        return node

    def p_or(self) -> _Node:
        return self._logic("or", self.p_and)

    def p_and(self) -> _Node:
        return self._logic("and", self.p_not)

    def _logic(self, op: str, sub) -> _Node:
        first = sub()
        if not self.is_word(op):
            return first
        items = [self.need(first, "bool", f"'{op}'")]
        while self.is_word(op):
            self.take()
            items.append(self.need(sub(), "bool", f"'{op}'"))
        return _Logic(op, items, first.pos)

    def p_not(self) -> _Node:
        if self.is_word("not"):
            t = self.take()
            self.nest(t.pos)
            x = self.need(self.p_not(), "bool", "'not'")
            self.depth -= 1
            return _Not(x, t.pos)
        return self.p_compare()

    def p_compare(self) -> _Node:
        first = self.p_sum()
        if not (self.tok.kind == "op" and self.tok.text in _CMP):
            return first
        items = [self.need(first, "int", f"{self.tok.text!r}")]
        ops = []
        while self.tok.kind == "op" and self.tok.text in _CMP:
            op = self.take().text
            ops.append(op)
            items.append(self.need(self.p_sum(), "int", f"{op!r}"))
        return _Compare(items, ops, first.pos)

    def p_sum(self) -> _Node:
        first = self.p_unary()
        if not (self.tok.kind == "op" and self.tok.text in "+-"):
            return first
        items, signs = [self.need(first, "int", f"{self.tok.text!r}")], [1]
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.take().text
            items.append(self.need(self.p_unary(), "int", f"{op!r}"))
            signs.append(1 if op == "+" else -1)
        return _Sum(items, signs, first.pos)

    def p_unary(self) -> _Node:
        if self.tok.kind == "op" and self.tok.text == "-":
            t = self.take()
            self.nest(t.pos)
            x = self.need(self.p_unary(), "int", "'-'")
            self.depth -= 1
            return _Neg(x, t.pos)
        return self.p_atom()

    def p_atom(self) -> _Node:
        t = self.tok
        if t.kind == "int":
            self.take()
            value = int(t.text)
            if value > MAX_INT:
                raise self.error(f"number {t.text} is too large (at most {MAX_INT:,})", t.pos)
            return _Num(value, t.pos)
        if t.kind == "op" and t.text == "(":
            self.take()
            self.nest(t.pos)
            node = self.p_or()
            self.depth -= 1
            self.expect(")", f"to close the '(' at column {t.pos + 1}")
            return node
        if t.kind == "name":
            word = t.text.lower()
            if word in ("true", "false"):
                self.take()
                return _Num(1 if word == "true" else 0, t.pos, "bool")
            if word in ("and", "or", "not"):
                raise self.error(f"expected a number, a function or '(' before '{word}'", t.pos)
            return self.p_call()
        if t.kind == "end":
            raise self.error("the expression ends too soon: expected a number, a function or '('", t.pos)
        raise self.error(f"expected a number, a function or '(', found {t.text!r}", t.pos)

    def p_call(self) -> _Node:
        t = self.take()
        name = t.text.lower()
        if name not in FUNCTIONS:
            close = difflib.get_close_matches(name, list(FUNCTIONS), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            if name.upper() in _SEATS or name.upper() in _SUIT_NAMES:
                hint = " (seats, suits and cards are arguments of a function, like trumps(S, H))"
            raise self.error(f"unknown function {t.text!r}{hint}; functions: {' '.join(FUNCTIONS)}", t.pos)
        kinds, _ = FUNCTIONS[name]
        sig = f"{name}({', '.join(kinds)})"
        if not (self.tok.kind == "op" and self.tok.text == "("):
            raise self.error(f"expected '(' after {name}: {sig}", self.tok.pos)
        self.take()
        args: list[_Tok] = []
        while True:
            a = self.tok
            if a.kind == "op" and a.text == ")" and not args:
                break
            if a.kind not in ("name", "int"):
                raise self.error(f"expected {kinds[min(len(args), len(kinds) - 1)]} in {sig}, "
                                 f"found {self.describe(a)}", a.pos)
            args.append(self.take())
            if self.tok.kind == "op" and self.tok.text == ",":
                self.take()
                continue
            if self.tok.kind == "op" and self.tok.text == ")":
                break
            raise self.error(f"expected ',' or ')' in {sig}, found {self.describe(self.tok)}", self.tok.pos)
        close = self.take()
        if len(args) != len(kinds):
            where = args[len(kinds)].pos if len(args) > len(kinds) else close.pos
            raise self.error(f"{name} takes {len(kinds)} argument{'s' if len(kinds) > 1 else ''}: "
                             f"{sig}; got {len(args)}", where)
        return self._build(name, sig, t.pos, args)

    # -- arguments and the counts behind each function --------------------------------------
    def _seat(self, a: _Tok, sig: str) -> tuple[int, ...]:
        key = a.text.upper()
        if key not in _SEATS:
            raise self.error(f"expected a seat (N E S W, or a side NS EW) in {sig}, found {a.text!r}", a.pos)
        return _SEATS[key]

    def _suit(self, a: _Tok, sig: str) -> int:
        key = a.text.upper()
        if key in ("NT", "NTL", "N"):
            raise self.error(f"{sig} needs a suit: {a.text!r} is no trump, which has no trumps or bowers", a.pos)
        if key not in _SUIT_NAMES:
            raise self.error(f"expected a suit (S H D C, or spades hearts diamonds clubs) in {sig}, found {a.text!r}", a.pos)
        return _SUIT_NAMES[key]

    def _card(self, a: _Tok, sig: str) -> Card:
        try:
            card = Card.parse(a.text)
        except NotationError:
            raise self.error(f"expected a card (like HJ, SA or 10H) in {sig}, found {a.text!r}", a.pos) from None
        if card not in self.deck.card_ids:
            raise self.error(f"card {card} is not in the {self.deck.name} deck "
                             f"(ranks {' '.join(r.char for r in self.deck.ranks)})", a.pos)
        return card

    def _build(self, name: str, sig: str, pos: int, args: list[_Tok]) -> _Call:
        deck = self.deck
        seats = self._seat(args[0], sig)
        cap = deck.hand * len(seats)            # cards the seats hold in a full deal
        weights = np.zeros(24, dtype=np.int64)
        slots = None
        parts = [args[0].text.upper()]
        if name in ("trumps", "bowers", "length"):
            suit = self._suit(args[1], sig)
            parts.append(Suit(suit).name)
            for c in deck.card_ids:
                if name == "trumps":
                    weights[c] = effective_suit(c, suit) == suit
                elif name == "bowers":
                    weights[c] = c.rank == Rank.J and effective_suit(c, suit) == suit
                else:
                    weights[c] = c.suit == suit
            hi = min(cap, int(weights.sum()) * deck.copies)
        elif name == "has":
            card = self._card(args[1], sig)
            parts.append(str(card))
            weights[card] = 1
            hi = min(cap, deck.copies)
        elif name == "aces":
            for c in deck.card_ids:
                weights[c] = c.rank == Rank.A
            hi = min(cap, int(weights.sum()) * deck.copies)
        else:   # top
            suit = self._suit(args[1], sig)
            parts.append(Suit(suit).name)
            order = _trump_order(deck, suit)
            k_tok = args[2]
            if k_tok.kind != "int":
                raise self.error(f"expected a number K in {sig}, found {k_tok.text!r}", k_tok.pos)
            k, most = int(k_tok.text), len(order) * deck.copies
            if not 1 <= k <= most:
                raise self.error(f"K in {sig} must be 1 to {most} (the {deck.name} deck has "
                                 f"{most} trumps), got {k}", k_tok.pos)
            parts.append(str(k))
            slots = np.zeros(24, dtype=np.int64)
            left = k
            for c in order:                 # highest first; each copy one of the K
                slots[c] = min(deck.copies, left)
                left -= slots[c]
                if left == 0:
                    break
            hi = min(cap, k)
        return _Call(name, f"{name}({', '.join(parts)})", seats, weights, slots, hi, pos)


# ---------------------------------------------------------------------------------------------
# The public face

class Condition:
    """A parsed expression of the condition language, for one deck form.

    ``text`` the expression as given, ``kind`` ``"condition"`` (a comparison, ``and`` …) or
    ``"number"``, ``bounds`` the (low, high) range of its value over full deals of the deck
    (a condition: 0/1; ``(0, 0)`` means it can never hold).  Evaluate with :meth:`evaluate`
    (one deal) or :meth:`evaluate_counts` (a block of deals as card counts).
    """

    def __init__(self, text: str, deck: DeckForm, root: _Node):
        self.text = text
        self.deck = deck
        self._root = root

    @property
    def kind(self) -> str:
        return "condition" if self._root.type == "bool" else "number"

    @property
    def bounds(self) -> tuple[int, int]:
        return self._root.bounds()

    @property
    def never(self) -> bool:
        """True when the condition can hold in no full deal of the deck (by the ranges of its
        functions; a condition that is impossible for other reasons is found by sampling)."""
        return self.kind == "condition" and self.bounds[1] == 0

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats whose cards the expression counts (0..3 for N E S W, sorted): ``(2,)``
        for ``trumps(S, H)``; ``()`` for an expression of numbers only."""
        return tuple(sorted({s for c in self._root.calls() for s in c.seats}))

    def ranges(self) -> str:
        """The range of every function in the expression: ``trumps(S, H) 0..6, aces(N) 0..4``."""
        seen: dict[str, str] = {}
        for c in self._root.calls():
            seen.setdefault(c.text, f"{c.text} {c.bounds()[0]}..{c.bounds()[1]}")
        return ", ".join(seen.values())

    def evaluate_counts(self, counts: np.ndarray) -> np.ndarray:
        """Values over a block of deals.

        ``counts``: ``(n, 4, 24)`` copies of each card (:class:`~bideuchre.rules.Card` index)
        held by each seat (N E S W), like ``Deal.counts()`` stacked.  Returns ``(n,)``: bool for
        a condition, int64 for a number.
        """
        counts = np.asarray(counts)
        if counts.ndim != 3 or counts.shape[1:] != (4, 24):
            raise ValueError(f"counts must have shape (n, 4, 24), got {counts.shape}")
        out = self._root.eval(counts)
        return out.astype(bool) if self.kind == "condition" else out.astype(np.int64)

    def evaluate(self, deal: Deal) -> bool | int:
        """The value on one deal: a bool for a condition, an int for a number."""
        v = self.evaluate_counts(np.array(deal.counts(), dtype=np.int64)[None])[0]
        return bool(v) if self.kind == "condition" else int(v)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse_condition({self.text!r}, {self.deck.name!r})"

    def canonical(self) -> str:
        """The expression written back from the tree (fully parenthesised, canonical names):
        ``(bowers(S, H) == 2) and (trumps(S, H) >= 3)``; a chain of ``-`` or ``not`` stays a
        chain (``--x``).  It always reads back with :func:`parse_condition` (an expression whose
        canonical form would nest deeper or run longer than the limits is refused)."""
        return str(self._root)


def parse_condition(text: str, deck: DeckForm | str = "single24", *, what: str = "condition",
                    want: str | None = None) -> Condition:
    """Parse an expression of the condition language (this module's docstring).

    ``deck``: the deck form whose cards the functions count (a card outside it is an error;
    ranges depend on it).  ``what`` names the expression in messages (``--where``).  ``want``:
    ``"condition"`` to refuse a number, ``"number"`` to accept a number or a condition (a
    condition is 0/1), None for either.  Returns a :class:`Condition`.  Raises
    :class:`ConditionError` naming the column, with a caret.
    """
    deck = get_deck(deck)
    if not isinstance(text, str):
        raise ConditionError("the expression must be text", "", 0, what)
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"the expression is longer than {MAX_LENGTH:,} characters", text[:80], 80, what)
    if "\n" in text or "\r" in text:
        pos = min(i for i in (text.find("\n"), text.find("\r")) if i >= 0)
        raise ConditionError("the expression must be one line", text.replace("\n", " ").replace("\r", " "), pos, what)
    root = _Parser(text, deck, what).parse()
    if want == "condition" and _holds(root):
        root = _as_condition(root)
    if want == "condition" and root.type != "bool":
        raise ConditionError(f"needs a condition, but {root} is a number (compare it, like {root} >= 2)",
                             text, root.pos, what)
    # the canonical form must read back: bound its nesting and length as the input's are
    if _written_depth(root) > MAX_DEPTH:
        raise ConditionError(f"nested more than {MAX_DEPTH} deep when written out in full (every "
                             "comparison and operation in its own parentheses)", text, 0, what)
    if len(str(root)) > MAX_LENGTH:
        raise ConditionError(f"longer than {MAX_LENGTH:,} characters when written out in full "
                             "(every comparison and operation in its own parentheses)", text, 0, what)
    return Condition(text, deck, root)

