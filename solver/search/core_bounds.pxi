# Included by _search.pyx (one C module: the compiler inlines across these files).
# Sure-trick bounds at a trick boundary, and the ranks they compare.

# ---------------------------------------------------------------------------------------------
# Bounds
#
# Every bound that cuts sets c.rel to the marks of the ranks its count compared (see search):
# trump_marks, run_marks and leader_bound for the leader's side, other_bound for the other side,
# lead_wins and entry_bound (entry_take) for the leader's side's first trick and partner's
# tricks, second_wins for the second seat's side inside a trick.
# Its count must hold for every position agreeing on suit lengths (in the TT keys) and the
# owners of the cards at or above each suit's lowest mark; a bound that compares other ranks
# must mark them.

cdef inline uint32_t nth_card(Ctx* c, int q, uint32_t cards, int j) noexcept nogil:
    """The j-th highest of seat q's cards `cards` (one suit; copies counted, so a rank q holds
    twice counts twice), as a bit; j is at most their number."""
    cdef uint32_t bit = 0
    cdef int n = 0
    while n < j:
        bit = (<uint32_t>1) << top_bit(cards)
        n += 1 + ((c.m2[q] & bit) != 0)
        cards ^= bit
    return bit


cdef inline uint32_t run_marks(Ctx* c, int q, uint32_t sm, int* j, int m) noexcept nogil:
    """The marks of *j (at least 1) of the m tricks seat q counts by cashing side suit sm
    (seat_run; m > 0); sets *j to the tricks they cover (*j or m).  The mark is q's i-th
    highest card Y of the suit (copies counted), i = *j when *j < m and *j is at most q's n
    sure cards, else i = min(m, n) (all m counted), or none when nobody else holds the suit
    (the count is then lengths, in the key).

    Proof.  Q agrees with this position on lengths and on the owners of the cards at or above
    Y.  Here no other seat holds a card above Y (Y is at or above q's lowest sure card, so at
    or above the others' top card), so in Q the others' cards are at most Y too -- a copy of
    Y only where one is held here -- and q's cards at or above Y, its top i, are sure in Q:
    q holds at least i sure cards.  The i rounds win (the first played of identical cards
    wins) whatever lies below Y.  With i = *j < m that is the count.  Else seat_run's count
    only grows with the sure cards: the length winners need the sure cards to be at least
    every other hand's length (here n, in Q at least n), the rounds under a ruff are the
    sure cards capped by lengths (here m <= n, in Q at least m).  (The others' top card, the
    mark before, is at or below Y: Y makes fewer cards relevant.)"""
    cdef uint32_t others = (c.m1[(q + 1) & 3] | c.m1[(q + 2) & 3] | c.m1[(q + 3) & 3]) & sm
    cdef uint32_t top = sure_top(c.m1[q] & sm, others)
    cdef int n = suit_len(c, q, top)
    if j[0] < m and j[0] <= n:
        return nth_card(c, q, top, j[0])
    j[0] = m
    if others == 0:
        return 0
    return nth_card(c, q, top, m if m < n else n)


cdef inline uint32_t trump_marks(Ctx* c, int part) noexcept nogil:
    """The trump ranks the leader side's bound compared (see leader_bound), each the lowest
    trump its count needs (none in no trump):
    - `part` -1 (the side's sure trumps: a hand's trumps strictly above every trump of the
      other side): the lowest such trump of the side's hand holding most of them, when the
      other side holds a trump (else the count is lengths);
    - else the leader's lowest sure trump (t_top of quick_tricks) when another seat holds a
      trump (with no sure trump, nothing: the side suits' counts only grow with t_top); and
      when partner's top trumps count (part > 0), partner's lowest trump above every trump of
      the leader and the opponents, when they hold one.
    Proof.  Let Y be such a mark, the lowest of a hand h's counted trumps, all strictly above
    (for t_top: at least) the trumps they are compared with.  A position Q agreeing on
    lengths and on the owners of the trumps at or above Y has the same cards there, and the
    seats compared hold no trump above Y (for t_top: none above, a copy of Y at most), so in
    Q too: h holds at least as many such trumps.  Every count of leader_bound and quick_tricks
    only grows with them (fewer seats can ruff, the no-ruff test and partner's top trumps
    only gain), so it holds in Q; entry_bound's play cashes just the t_top of this position."""
    cdef int p = c.to_move, k, n, best = -1
    cdef uint32_t tm, r = 0, o, mine
    if c.trump < 0:
        return 0
    tm = SUITMASK[c.trump]
    if part < 0:
        o = (c.m1[(p + 1) & 3] | c.m1[(p + 3) & 3]) & tm
        if o == 0:
            return 0
        for k in range(2):
            mine = sure_top(c.m1[(p + 2 * k) & 3] & tm, o) & ~((<uint32_t>1) << top_bit(o))
            n = suit_len(c, (p + 2 * k) & 3, mine)
            if n > best or (n == best and (mine & (~mine + 1)) > r):
                best = n
                r = mine & (~mine + 1)
        return r
    o = (c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]) & tm
    mine = sure_top(c.m1[p] & tm, o)
    if o and mine:
        r = mine & (~mine + 1)
    if part > 0:
        o = (c.m1[p] | c.m1[(p + 1) & 3] | c.m1[(p + 3) & 3]) & tm
        if o:
            mine = sure_top(c.m1[(p + 2) & 3] & tm, o) & ~((<uint32_t>1) << top_bit(o))
            r |= mine & (~mine + 1)
    return r


cdef inline int leader_bound(Ctx* c, int* per, int base, int want, int part) noexcept nogil:
    """The leader side's sure tricks (base from trumps, per[s] from side suit s: see
    quick_tricks) counted only as far as `want` needs, and c.rel set to the marks of what was
    counted (trump_marks; then, largest first, the side suits added until the count reaches
    want).  `part`: partner's top trumps counted in base (trump_bounds), or -1 when base is
    the side's sure trumps instead.  Returns the count (>= want when base plus every suit
    reaches it).  The leader may cash just those suits (after the trumps): each suit's tricks
    in quick_tricks are argued on their own, so any subset is a bound, and it holds for every
    position agreeing on lengths and on the marked ranks.

    A suit is marked at the leader's lowest card its count needs (run_marks: the j-th highest
    when only j tricks of it are needed), not at the others' top card below it."""
    cdef int amt = base, s, k, m, j
    cdef uint32_t r = trump_marks(c, part)
    while amt < want:
        k = -1
        m = 0
        for s in range(4):
            if per[s] > m:
                m = per[s]
                k = s
        if k < 0:
            break
        per[k] = 0
        j = want - amt
        r |= run_marks(c, c.to_move, SUITMASK[k], &j, m)
        amt += j
    c.rel = r
    return amt


cdef inline int suit_len(Ctx* c, int q, uint32_t sm) noexcept nogil:
    """Cards (copies counted) seat q holds among the cards of mask sm (a suit, or some of
    q's cards)."""
    return popcount(c.m1[q] & sm) + popcount(c.m2[q] & sm)


cdef inline uint32_t sure_top(uint32_t mine, uint32_t others) noexcept nogil:
    """The cards of `mine` (one seat's, one suit) at least every card of `others` (the other
    seats' of that suit): led, each wins (the first played of identical cards wins)."""
    if others:
        return mine & ~(((<uint32_t>1) << top_bit(others)) - 1)
    return mine


cdef inline int trump_rounds(Ctx* c, int* more) noexcept nogil:
    """The leader's sure trumps (t_top of quick_tricks: its trumps at least every other trump,
    copies counted), which it cashes first.  *more gets the seats (bit w for seat w, the
    leader's included) holding more than t_top trumps -- each followed trumps to every one of
    those rounds and still holds trumps, so it may ruff a side suit afterwards -- or 0 when
    nobody can ruff once they are cashed: no trumps, or t_top at least every other hand's
    trumps (each followed trumps to every round; the leader's other trumps then win too).
    Computed once a trick boundary (search) for quick_tricks and entry_bound."""
    cdef int p = c.to_move, t, w
    cdef uint32_t tm
    more[0] = 0
    if c.trump < 0:
        return 0
    tm = SUITMASK[c.trump]
    t = suit_len(c, p, sure_top(c.m1[p] & tm,
                                (c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]) & tm))
    for w in range(4):
        if suit_len(c, w, tm) > t:
            more[0] |= 1 << w
    if (more[0] & ~(1 << p)) == 0:
        more[0] = 0                     # nobody else holds more: nobody can ruff
    return t


cdef inline int seat_run(Ctx* c, int q, uint32_t sm, int ruff, int loose) noexcept nogil:
    """Tricks seat q takes cashing its sure cards of side suit sm from the lead, keeping it
    (quick_tricks' count of a suit, from q's seat; its sure cards are those at least every
    other seat's card of the suit).  `ruff`: bit w set for each seat w that may ruff
    (holds a trump once the trump rounds are over), 0 when nobody can; `loose`: the seats of
    `ruff` that may have let go one card of the suit since (counted one card shorter).  With
    nobody able to ruff, the length winners too (quick_tricks' theorem); else as many rounds
    as every seat of `ruff` must follow suit."""
    cdef uint32_t others = (c.m1[(q + 1) & 3] | c.m1[(q + 2) & 3] | c.m1[(q + 3) & 3]) & sm
    cdef int k, w, n
    k = suit_len(c, q, sure_top(c.m1[q] & sm, others))
    if k == 0:
        return 0
    if ruff == 0:
        # length winners: the others run out of the suit under the k sure cards
        for w in range(1, 4):
            if suit_len(c, (q + w) & 3, sm) > k:
                return k
        return suit_len(c, q, sm)
    for w in range(4):
        if (ruff >> w) & 1:
            n = suit_len(c, w, sm) - ((loose >> w) & 1)
            if n < k:
                k = n
    return k if k > 0 else 0


cdef int quick_tricks(Ctx* c, int* per, int t_top, int more) noexcept nogil:
    """Tricks the leader is sure to take by cashing top cards, keeping the lead (a lower bound
    for the leader's side).  A card is sure when it is at least every other remaining card of
    its suit (the first played of identical cards wins), so nobody, partner included, takes
    the lead from it.  Under a trump suit, a side-suit winner counts only for as many rounds as
    every other player who can still ruff must follow suit (else a ruff, or a forced ruff by
    partner, takes the lead).  The leader cashes the sure trumps first (t of them, each a
    trick): every other hand follows to each of those rounds while it holds trumps, so only a
    hand holding more than t trumps can ruff afterwards -- and such a hand followed trumps
    every round, so its cards of the side suits are all still there to be counted (and while a
    side suit is cashed it follows that suit, so the other side suits keep its cards too).

    Length winners (DDS's QuickTricks counts them too).  Theorem: if the leader's sure cards
    of a suit number k (copies counted) and every other hand holds at most k cards of it, then
    every card the leader holds in it wins a trick, keeping the lead, provided nobody can ruff
    after the others' cards of the suit are gone.  Proof: each of the k rounds cashing the
    sure cards wins for the leader, and every other hand must follow suit while it can, one
    card a round, so after k rounds none holds a card of the suit; each of the leader's further
    cards of the suit is then the only card of its suit in its trick, and wins it unless a
    trump is played to it.  "Nobody can ruff" holds in no trump, when no other hand holds a
    trump, and -- for a side suit -- when the leader's sure trumps were cashed first (counted
    in this bound) and they outnumber every other hand's trumps, partner's included: each
    other hand followed suit to every one of those rounds, so its trumps are gone.  The trump
    suit itself is the same argument with no ruff possible.  The sum over suits stays a bound
    because the leader keeps the lead throughout and each card counted is a distinct card of
    the leader's (at most one trick each).

    Returns the total; per[s] gets side suit s's part of it (0 for the trump suit): the rest
    comes from the trumps.  t_top, more: trump_rounds'."""
    cdef int p = c.to_move, s, k, total
    # the hands that can still ruff once the leader's sure trumps are cashed: those holding
    # more trumps than that (each followed to every trump round)
    cdef int ruff = more & ~(1 << p)
    total = t_top
    if ruff == 0 and t_top:
        # every other hand's trumps fall under the sure ones: all the leader's trumps win
        total = suit_len(c, p, SUITMASK[c.trump])
    for s in range(4):
        per[s] = 0
        if s == c.trump or (c.m1[p] & SUITMASK[s]) == 0:
            continue
        k = seat_run(c, p, SUITMASK[s], ruff, 0)
        per[s] = k
        total += k
    return total


cdef inline int entry_take(Ctx* c, int* cnt, int amt, int ql, int keep, uint32_t r, int want,
                           int part) noexcept nogil:
    """entry_bound's count from the entry on: adds, largest first, the parts cnt[] (0..3 the
    leader's side suits, 4..7 partner's, 8 partner's top trumps) to amt until it reaches
    want, each as far as needed, with their marks (run_marks, trump_marks) to r; ql: the
    leader's tricks before the entry, keep: the cards partner must keep through them.
    Returns the count with c.rel set to r, or 0 (c.rel untouched) when partner's cards do
    not number at least ql more than those it keeps (see entry_bound)."""
    cdef int p = c.to_move, q = (c.to_move + 2) & 3, m, o, s, j
    while amt < want:
        m = 0
        o = -1
        for s in range(9):
            if cnt[s] > m:
                m = cnt[s]
                o = s
        if o < 0:
            return 0
        cnt[o] = 0
        j = want - amt
        if o == 8:
            r |= trump_marks(c, part)
            j = m
            keep += m
        elif o >= 4:
            r |= run_marks(c, q, SUITMASK[o - 4], &j, m)
            keep += j
        else:
            r |= run_marks(c, p, SUITMASK[o], &j, m)
            ql += j
        amt += j
    if suit_len(c, q, 0xFFFFFFFFu) - keep < ql:
        return 0
    c.rel = r
    return amt


cdef int entry_bound(Ctx* c, int* per, int lt, int part, int want, int t_top,
                     int more) noexcept nogil:
    """The leader side's sure tricks with an entry to partner (DDS's QuickTricks with
    commPartner), counted only as far as `want` needs: when they reach want, sets c.rel to
    their marks and returns the count; else returns 0 and leaves c.rel alone.  `per`, `lt`:
    quick_tricks' side suits and the leader's tricks from trumps (its total less the side
    suits); `part`: partner's top trumps (trump_bounds).

    The play: the leader cashes its lt trump tricks (trump_rounds: the t_top sure ones, and
    with nobody able to ruff afterwards all its trumps), then j_s tricks of some side suits s
    (j_s <= per[s], largest first: each suit is argued on its own in quick_tricks); then it
    leads a side suit e it holds and counted nothing in (per[e] = 0), to partner, who wins
    the trick and cashes its own sure cards of the suits the leader counted nothing in
    (seat_run from partner's seat), as many rounds as every seat still able to ruff must
    follow: the leader when it holds more trumps than t_top (and some seat could ruff), an
    opponent holding more than t_top.  Partner's top trumps (part) win whenever played.

    The entry, either
    (a) partner's top card X of e is strictly above every other card of e, and each opponent
        still able to ruff holds a card of e: the leader leads any card of e (all below X),
        partner plays X and wins; this is the first round of partner's cashing of e; or
    (b) some seat could ruff, partner is void in e and holds more than t_top trumps, and its
        top trump T is strictly above the top trump of each opponent able to ruff and void in
        e (the others follow suit, or hold no trump any more): partner ruffs with T and
        nobody overruffs.  Such an opponent may let go one card of another suit on this
        trick (seat_run's `loose`).  Partner's top trumps are then not counted (T may be
        one).
    Why the cards this needs are still there.  The leader leads every trick before the
    entry, so it never discards and still holds e and every card of the suits it did not
    cash.  An opponent able to ruff afterwards holds more than t_top trumps, so it followed
    trumps to each trump round, and followed suit to each round of the leader's side suits
    (quick_tricks counts only as many rounds as it must follow): it discarded nothing, so
    it holds all its cards of e and of partner's suits.  Partner plays one card to each of
    the leader's ql = lt + sum j_s tricks: a trump or a card of a suit the leader cashes (none
    counted for partner: those suits have per[s] > 0) when it follows suit, else any card it
    chooses; so it keeps the cards counted for it -- X or T, its cashed cards, its top trumps
    -- when its cards number at least ql more than those (checked).  It never has to ruff one
    of the leader's side-suit winners: still holding a trump after the trump rounds, it is
    one of the seats quick_tricks' counts make follow suit.  With T: partner holds
    more than t_top trumps, so it follows each trump round with another trump.  With part >
    0 the leader holds no sure trump (partner's is higher), so there are no trump rounds.
    Partner's cashing: each card counted is still at least every other card of its suit
    (the others' cards only go), the seats that may ruff follow suit to every round counted
    (their cards of the suit are all there but a loose one), the others hold no trump any
    more (each held at most t_top and followed trumps; with nobody able to ruff, the leader
    cashed all its trumps).  The tricks are distinct: the leader's ql, the entry, partner's.

    Marks (every position Q agreeing on suit lengths and on the owners of the cards at or
    above each mark plays the same way and takes as many tricks): trump_marks for the trump
    rounds (Q's leader's top t_top trumps are sure too -- it may hold more, the play cashes
    these t_top -- and the seats holding more than t_top trumps are the same: lengths) and for
    partner's top trumps if counted (Q's partner holds at least as many); run_marks for each
    side suit's j tricks, the
    leader's and partner's (for e, from X down: X and the cards above it have the same
    owners, so X is partner's and strictly above every other card of e in Q too); in (b), T
    when some opponent able to ruff is void in e (in Q no such opponent holds a trump at or
    above T; with none, partner ruffs with any trump), else nothing.  Who is void, who holds
    more than t_top trumps, partner's card count: lengths."""
    cdef int p = c.to_move, q = (p + 2) & 3, a = (p + 1) & 3, b = (p + 3) & 3
    cdef int cnt[9]
    cdef int pc[4]
    cdef int kind[4]
    cdef int looses[4]
    cdef uint32_t emarks[4]
    cdef int ruff, loose, e, s, k = 0, m, j, o, x, ot, amt, ql, keep, pot, cand = 0
    cdef uint32_t sm, tm = 0, r, r0
    if c.m1[q] == 0:
        return 0                        # partner sits out
    for e in range(4):
        if e != c.trump and per[e] == 0 and (c.m1[p] & SUITMASK[e]):
            cand |= 1 << e
    if cand == 0:
        return 0
    # at most: every part, partner's whole suits where it holds a sure card, the ruff
    pot = lt + part + 1
    for s in range(4):
        pot += per[s]
        sm = SUITMASK[s]
        if s != c.trump and per[s] == 0 and \
                top_bit(c.m1[q] & sm) >= top_bit((c.m1[p] | c.m1[a] | c.m1[b]) & sm):
            pot += suit_len(c, q, sm)
    if pot < want:
        return 0
    # the seats but partner that may ruff after the trump rounds (trump_rounds' more)
    ruff = more & ~(1 << q)
    if ruff:
        tm = SUITMASK[c.trump]
    # the entries: kind[e] 1 for (a), 2 for (b) (with its loose seats and mark)
    for e in range(4):
        kind[e] = 0
        if not (cand >> e) & 1:
            continue
        sm = SUITMASK[e]
        x = top_bit(c.m1[q] & sm)
        if x > top_bit((c.m1[p] | c.m1[a] | c.m1[b]) & sm) and not (
                ((ruff >> a) & 1 and (c.m1[a] & sm) == 0)
                or ((ruff >> b) & 1 and (c.m1[b] & sm) == 0)):
            kind[e] = 1                 # (a): X, the first round of partner's cashing of e
        elif ruff and x < 0 and (more >> q) & 1:
            ot = -1
            loose = 0
            for o in range(2):
                s = (p + 1 + 2 * o) & 3
                if (ruff >> s) & 1 and (c.m1[s] & sm) == 0:
                    loose |= 1 << s
                    x = top_bit(c.m1[s] & tm)
                    if x > ot:
                        ot = x
            x = top_bit(c.m1[q] & tm)
            if x > ot:
                kind[e] = 2             # (b): T
                looses[e] = loose
                emarks[e] = ((<uint32_t>1) << x) if ot >= 0 else 0
        k |= kind[e]
    if k == 0:
        return 0
    # the most each part could bring (nobody loose: a loose seat only lowers partner's)
    pot = lt + part
    for s in range(4):
        pc[s] = 0
        if s != c.trump and per[s] == 0 and (c.m1[q] & SUITMASK[s]):
            pc[s] = seat_run(c, q, SUITMASK[s], ruff, 0)
        pot += per[s] + pc[s]
    if pot + 1 < want:
        return 0                        # (b) adds one trick, (a) none beyond partner's
    r0 = trump_marks(c, 0)              # the marks of the leader's trump rounds
    for e in range(4):
        k = kind[e]
        if k == 0 or (k == 1 and pot < want) or (k == 2 and pot - part + 1 < want):
            continue
        sm = SUITMASK[e]
        loose = looses[e] if k == 2 else 0
        # cnt[0..3] the leader's side suits, cnt[4..7] partner's, cnt[8] partner's top trumps
        m = lt + (1 if k == 2 else part)
        for s in range(4):
            cnt[s] = per[s]
            cnt[4 + s] = pc[s]
            if loose and pc[s]:
                cnt[4 + s] = seat_run(c, q, SUITMASK[s], ruff, loose)
            m += cnt[s] + cnt[4 + s]
        cnt[8] = part if k == 1 else 0
        if m < want:
            continue
        # count as far as want needs: the entry first, then the largest parts
        amt = lt
        ql = lt
        keep = 0
        r = r0
        if k == 2:
            amt += 1
            keep = 1
            r |= emarks[e]
        else:
            j = want - amt
            r |= run_marks(c, q, sm, &j, cnt[4 + e])
            cnt[4 + e] = 0
            amt += j
            keep = j
        amt = entry_take(c, cnt, amt, ql, keep, r, want, part)
        if amt:
            return amt
    return 0


cdef inline uint32_t above(uint32_t cards, uint32_t bit) noexcept nogil:
    """The cards of `cards` at or above `bit` (one suit's cards out: what a mark there makes
    relevant)."""
    return cards & ~(bit - 1)


cdef inline bint lead_wins(Ctx* c) noexcept nogil:
    """Whether the leader's side surely wins the trick the leader is about to lead (it then
    takes at least one of the tricks left); sets c.rel to the marks of the proof (see search)
    when it does.

    The leader leads some suit s it holds, and the side's card wins the trick when
    (a) the leader's top card X of s is at least every opponent's card of s (the leader plays
        first, and of identical cards the first played wins), or partner's top card X of s
        is strictly above every opponent's card of s (whoever plays first) -- partner,
        holding s, may play it; a higher card of the side wins for the side too -- and no
        opponent can ruff: s is trumps, there are no trumps, or each opponent holds a card of
        s (it must follow) or no trump.  Partner, void in s, may ruff or discard: either way
        the side wins.
    (b) s is a side suit, partner is void in s and its top trump X is strictly above the top
        trump of each opponent void in s (the others must follow suit): partner ruffs with it
        and nobody overruffs, whatever the order of play (tricks of three included: a seat
        sitting out holds nothing, so it neither follows nor ruffs).
    Marks: X, when an opponent holds a card of s (in (b): a void opponent holds a trump);
    else none.  A position agreeing on the owners of the cards at or above X (and on lengths,
    so on who is void and who holds trumps) has the same X, and the opponents' cards there
    are below it (or, for the leader's X, at most equal), so the same card wins.  Of the
    suits that win, the one whose mark makes the fewest cards relevant."""
    cdef int p = c.to_move, q = (p + 2) & 3, a = (p + 1) & 3, b = (p + 3) & 3, s, ot, x, n
    cdef int best = 99
    cdef uint32_t sm, tm = 0, opp = c.m1[a] | c.m1[b], out, bit, r = 0
    cdef bint opp_ruff
    if c.trump >= 0:
        tm = SUITMASK[c.trump]
    out = c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]
    for s in range(4):
        sm = SUITMASK[s]
        if (c.m1[p] & sm) == 0:
            continue
        ot = top_bit(opp & sm)
        opp_ruff = s != c.trump and c.trump >= 0 and (
            ((c.m1[a] & sm) == 0 and (c.m1[a] & tm) != 0)
            or ((c.m1[b] & sm) == 0 and (c.m1[b] & tm) != 0))
        x = -1
        if not opp_ruff:
            if top_bit(c.m1[q] & sm) > ot:
                x = top_bit(c.m1[q] & sm)
            if top_bit(c.m1[p] & sm) >= ot and top_bit(c.m1[p] & sm) > x:
                x = top_bit(c.m1[p] & sm)
            if x >= 0:
                if ot < 0:
                    c.rel = 0
                    return 1
                bit = (<uint32_t>1) << x
                n = popcount(above(out & sm, bit))
                if n < best:
                    best = n
                    r = bit
        if s != c.trump and c.trump >= 0 and (c.m1[q] & sm) == 0 and (c.m1[q] & tm) != 0:
            ot = -1
            if (c.m1[a] & sm) == 0:
                ot = top_bit(c.m1[a] & tm)
            if (c.m1[b] & sm) == 0:
                x = top_bit(c.m1[b] & tm)
                if x > ot:
                    ot = x
            x = top_bit(c.m1[q] & tm)
            if x > ot:
                if ot < 0:
                    c.rel = 0
                    return 1
                bit = (<uint32_t>1) << x
                n = popcount(above(out & tm, bit))
                if n < best:
                    best = n
                    r = bit
    if best == 99:
        return 0
    c.rel = r
    return 1


cdef inline bint second_wins(Ctx* c) noexcept nogil:
    """At the second seat p of a four-card trick (the leader, an opponent, has led suit s):
    whether p's side surely wins the trick (it then takes at least one of the tricks left,
    DDS's QuickTricksSecondHand); sets c.rel to the marks of the proof (see search) when it
    does.  q is the third seat (the leader's partner), r the fourth (p's partner).

    (a) No ruff by q (s is trumps, there are no trumps, or q holds a card of s or no trump):
        p's top card X of s is above the card led and at least q's top card of s (p plays
        before q: of identical cards the first played wins), or r's top card X of s is above
        both (strictly: r plays after q) -- that card wins, whatever else is played (a card of
        p's side above it wins for the side too); or s is a side suit and p or r is void in
        s with a trump -- it ruffs, and nobody can overruff.  Marks: X; none for the ruff.
    (b) q can ruff (void in the side suit s, holding a trump): p void in s ruffs with its top
        trump X, at least q's top trump, or r void in s ruffs with its top trump X, strictly
        above q's.  Marks: X.
    A position agreeing on lengths (so on who is void and who holds trumps) and on the owners
    of the cards at or above X has the same X above the cards it must beat: the card led is
    the same card, or a small one below every mark; q's cards at or above X are the same."""
    cdef int p = c.to_move, q = c.nxt[p], r = c.nxt[q], s = c.led_suit, t = c.trump, x
    cdef uint32_t sm = SUITMASK[s], hp = c.m1[p] & sm, hq = c.m1[q] & sm, hr = c.m1[r] & sm
    cdef uint32_t tm
    if t < 0 or t == s or hq != 0 or (c.m1[q] & SUITMASK[t]) == 0:
        # (a): q follows suit, discards, or s is trumps
        if hp:
            x = top_bit(hp)
            if x > c.win_bit and x >= top_bit(hq):
                c.rel = (<uint32_t>1) << x
                return 1
        if hr:
            x = top_bit(hr)
            if x > c.win_bit and x > top_bit(hq):
                c.rel = (<uint32_t>1) << x
                return 1
        if t >= 0 and t != s and ((hp == 0 and (c.m1[p] & SUITMASK[t]) != 0)
                                  or (hr == 0 and (c.m1[r] & SUITMASK[t]) != 0)):
            c.rel = 0
            return 1
        return 0
    # (b): q can ruff the side suit s
    tm = SUITMASK[t]
    x = top_bit(c.m1[q] & tm)
    if hp == 0 and top_bit(c.m1[p] & tm) >= x:
        c.rel = (<uint32_t>1) << top_bit(c.m1[p] & tm)
        return 1
    if hr == 0 and top_bit(c.m1[r] & tm) > x:
        c.rel = (<uint32_t>1) << top_bit(c.m1[r] & tm)
        return 1
    return 0


cdef inline int trumps_above(Ctx* c, int q, uint32_t tm, int t) noexcept nogil:
    """Seat q's trumps (mask tm; copies counted) strictly above effective bit t (all if t < 0)."""
    cdef uint32_t mine = c.m1[q] & tm
    if t >= 0:
        mine &= ~((((<uint32_t>1) << t) << 1) - 1)
    return suit_len(c, q, mine)


cdef inline int other_bound(Ctx* c, int want, int tops) noexcept nogil:
    """The sure trumps of the side not on lead (trump_bounds' sure[] for it) counted only as far
    as `want` needs (`tops`: all of them, at least want); sets c.rel to their marks and returns
    the count: want, from a hand of that side holding that many trumps strictly above every
    trump of the leader's side.  Such a
    hand's top `want` trumps each win the trick they are played to (a higher trump in it can
    only be partner's), in every position agreeing on the cards down to its want-th trump
    (copies counted): so that card is the mark -- none when the leader's side holds no trump
    (the count is then a length, in the key)."""
    cdef int p = c.to_move, q, t, k
    cdef uint32_t tm = SUITMASK[c.trump], mine
    t = top_bit((c.m1[p] | c.m1[(p + 2) & 3]) & tm)
    for k in range(2):
        q = (p + 1 + 2 * k) & 3
        mine = c.m1[q] & tm
        if t >= 0:
            mine &= ~((((<uint32_t>1) << t) << 1) - 1)
        if suit_len(c, q, mine) < want:
            continue
        c.rel = nth_card(c, q, mine, want) if t >= 0 else 0
        return want
    c.rel = tm                          # not reached (tops is such a hand's count); the
    return tops                         # whole trump suit would be its marks


cdef inline int trump_bounds(Ctx* c, int* sure) noexcept nogil:
    """Sure tricks through trumps.  Sets sure[0] (NS) and sure[1] (EW) and returns the trumps
    of the leader's partner above every other seat's trumps.

    Every card of a hand is played by the end of the hand, one a trick, and a trump above
    every trump of the other side wins the trick it is played to for its side (a higher trump
    in it can only be partner's).  So a side takes at least as many tricks as either of its
    hands holds such trumps (copies counted; a copy of the same card on the other side ties,
    and a tie goes to whoever plays first, so only strictly higher trumps count).  With the
    other side out of trumps, that is the longer trump holding of the side.

    Partner's trumps above every other trump, the leader's included, win whenever played and
    never fall under the leader's cashing: they add to the leader's quick tricks."""
    cdef uint32_t tm
    cdef int q, k, t, pp, part = 0
    cdef int top[4]
    sure[0] = sure[1] = 0
    if c.trump < 0:
        return 0
    tm = SUITMASK[c.trump]
    for q in range(4):
        top[q] = top_bit(c.m1[q] & tm)
    for q in range(4):
        if top[q] < 0:
            continue
        t = top[(q + 1) & 3] if top[(q + 1) & 3] > top[(q + 3) & 3] else top[(q + 3) & 3]
        k = trumps_above(c, q, tm, t)
        if k > sure[q & 1]:
            sure[q & 1] = k
    pp = (c.to_move + 2) & 3
    if top[pp] >= 0:
        t = top[c.to_move]
        if top[(pp + 1) & 3] > t:
            t = top[(pp + 1) & 3]
        if top[(pp + 3) & 3] > t:
            t = top[(pp + 3) & 3]
        if top[pp] > t:
            part = trumps_above(c, pp, tm, t)
    return part
