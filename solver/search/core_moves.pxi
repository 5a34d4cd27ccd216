# Included by _search.pyx (one C module: the compiler inlines across these files).
# Moves: the legal cards in search order, and playing a card to the trick.

# ---------------------------------------------------------------------------------------------
# Moves

cdef inline void reverse_moves(int* moves, int lo, int hi) noexcept nogil:
    """Reverse moves[lo:hi] in place."""
    cdef int t
    hi -= 1
    while lo < hi:
        t = moves[lo]
        moves[lo] = moves[hi]
        moves[hi] = t
        lo += 1
        hi -= 1


cdef inline uint32_t class_tops(Ctx* c, int s, uint32_t hs, uint32_t present) noexcept nogil:
    """The classes of equivalent cards among hs (one seat's cards of suit s, in the suit's
    byte), as the set of the top card of each: a card is equivalent to the card above it in
    this hand when no other hand holds a card between them (present: the other hands' cards)
    and no card of this trick lies between them -- or the one above loses this trick too (a
    card of the trick is gone after it).  At the lead the trick holds no card."""
    cdef uint32_t pres = (present >> (8 * s)) & 0xFF, tmk = (c.trick_mask >> (8 * s)) & 0xFF
    cdef uint32_t out = 0, span
    cdef int b, prev = -1, ws = c.win_bit >> 3
    while hs:
        b = 31 - __builtin_clz(hs)
        hs ^= (<uint32_t>1) << b
        if prev >= 0:
            span = ((<uint32_t>1) << (prev - b + 1)) - 1
            if (pres >> b) & span == 0:
                if (tmk >> b) & span == 0 or not (
                        (s == ws and 8 * s + prev > c.win_bit) or (s == c.trump and ws != c.trump)):
                    prev = b
                    continue
        prev = b
        out |= (<uint32_t>1) << b
    return out


cdef inline bint partner_wins(Ctx* c, int p) noexcept nogil:
    """Whether p's partner is winning the trick so far, and -- p in third hand -- the last
    player cannot beat partner's card (following suit higher, or ruffing / overruffing)."""
    cdef int ws = c.win_bit >> 3
    cdef uint32_t lf
    if (c.win_seat & 1) != (p & 1):
        return 0
    if c.ntrick == c.trick_size - 2:
        lf = c.m1[c.nxt[p]]
        if lf & SUITMASK[c.led_suit]:
            if ws == c.led_suit and top_bit(lf & SUITMASK[c.led_suit]) > c.win_bit:
                return 0
        elif c.trump >= 0 and (lf & SUITMASK[c.trump]):
            if ws != c.trump or top_bit(lf & SUITMASK[c.trump]) > c.win_bit:
                return 0
    return 1


cdef inline int follow_moves(Ctx* c, int p, uint32_t f, int* moves) noexcept nogil:
    """gen_moves for a follower holding cards of the suit led (f: those cards, at least two).
    Two steps: the classes (the top card of each, high to low), then their order by score,
    best first, equal scores in the classes' order: partner winning (and the last player
    unable to beat partner's card, in third hand) or the trick ruffed, 100 - b (b: the rank
    order in the suit); else a card beating the winner 200 - b, or 110 - b when the opponent
    still to play can beat it, and a loser 100 - b.  All the cards are of one suit, so the
    ranks differ and the groups' ranges of scores do not overlap; and the groups are runs of
    the high-to-low list (a card is in a higher group than every card below it), so the
    order is found without scores: each run reversed.  (These scores were gen_moves' for
    the followers; the node counts did not change with this form.)"""
    cdef int s = c.led_suit, sh = 8 * s, n = 0, b, wb = c.win_bit, ws = c.win_bit >> 3
    cdef int later, thr2, i, j
    cdef uint32_t lf, hs = class_tops(
        c, s, (f >> sh) & 0xFF, c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3])
    while hs:           # the classes, high to low
        b = 31 - __builtin_clz(hs)
        hs ^= (<uint32_t>1) << b
        moves[n] = sh + b
        n += 1
    if n == 1:
        return 1
    if ws != s or partner_wins(c, p):
        reverse_moves(moves, 0, n)
        return n
    # cards above thr2 - 1 score 200 - b, the other cards above wb 110 - b
    thr2 = wb + 1
    if c.ntrick < c.trick_size - 1 and (c.nxt[p] & 1) != (p & 1):
        later = c.nxt[p]
        lf = c.m1[later] & SUITMASK[s]
        if lf:
            if top_bit(lf) > thr2:
                thr2 = top_bit(lf)
        elif c.trump >= 0 and s != c.trump and (c.m1[later] & SUITMASK[c.trump]):
            thr2 = 99
    i = 0
    while i < n and moves[i] >= thr2:
        i += 1
    j = i
    while j < n and moves[j] > wb:
        j += 1
    reverse_moves(moves, 0, i)
    reverse_moves(moves, i, j)
    reverse_moves(moves, j, n)
    return n


cdef inline int void_moves(Ctx* c, int p, uint32_t h, int* moves) noexcept nogil:
    """gen_moves for a follower void in the suit led (h: its cards, at least two): the classes
    (class_tops, suit by suit from the lowest slot, high to low) ordered by
    score, best first, equal scores in that order.  A side-suit card scores 100 - b (b: the
    rank order in its suit), a trump 50 - b when it does not beat the winner or partner is
    winning (partner_wins), else 180 - b, or 110 - b when the opponent still
    to play can overruff it.  The ranges do not overlap, so the order is found without
    scores: the trumps at 180, the trumps at 110 (each lowest first), the side-suit cards
    lowest rank first -- equal ranks by suit slot --, the trumps at 50.  (These scores were
    gen_moves' for the followers; the node counts did not change with this form.)"""
    cdef uint32_t present = c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]
    cdef uint32_t rest = h, cls = 0, tr = 0, win = 0, sure = 0, lf, x, y, ors
    cdef int s, b, n = 0, ws = c.win_bit >> 3, tc = c.trump, later
    # the classes (class_tops: a set of their top cards)
    while rest:
        s = __builtin_ctz(rest) >> 3
        cls |= class_tops(c, s, (rest >> (8 * s)) & 0xFF, present) << (8 * s)
        rest &= ~SUITMASK[s]
    if (cls & (cls - 1)) == 0:
        moves[0] = top_bit(cls)
        return 1
    if tc >= 0:
        tr = (cls >> (8 * tc)) & 0xFF
        cls &= ~SUITMASK[tc]
        if tr and not partner_wins(c, p):
            # the trumps that beat the winner; of those, the ones no later opponent overruffs
            win = tr
            if ws == tc:
                win &= ~((((<uint32_t>1) << (c.win_bit & 7)) << 1) - 1)
            sure = win
            if win and c.ntrick < c.trick_size - 1 and (c.nxt[p] & 1) != (p & 1):
                later = c.nxt[p]
                lf = c.m1[later]
                if (lf & SUITMASK[c.led_suit]) == 0 and (lf & SUITMASK[tc]):
                    # overruffed when its top trump is above
                    sure &= ~(((<uint32_t>1) << (top_bit(lf & SUITMASK[tc]) & 7)) - 1)
            tr &= ~win
            win &= ~sure
        x = sure
        while x:
            b = __builtin_ctz(x)
            x &= x - 1
            moves[n] = 8 * tc + b
            n += 1
        x = win
        while x:
            b = __builtin_ctz(x)
            x &= x - 1
            moves[n] = 8 * tc + b
            n += 1
    # the side-suit cards by rank, lowest first, equal ranks by suit slot
    while cls:
        ors = (cls | (cls >> 8) | (cls >> 16) | (cls >> 24)) & 0xFF
        b = __builtin_ctz(ors)
        y = (cls >> b) & 0x01010101u
        cls &= ~(0x01010101u << b)
        while y:
            s = __builtin_ctz(y) >> 3
            y &= y - 1
            moves[n] = 8 * s + b
            n += 1
    x = tr
    while x:
        b = __builtin_ctz(x)
        x &= x - 1
        moves[n] = 8 * tc + b
        n += 1
    return n


cdef inline int follower_moves(Ctx* c, int p, int* moves) noexcept nogil:
    """gen_moves for a seat following to the trick (c.ntrick > 0)."""
    cdef uint32_t h = c.m1[p], f = h & SUITMASK[c.led_suit]
    if f:
        if (f & (f - 1)) == 0:
            moves[0] = top_bit(f)
            return 1
        return follow_moves(c, p, f, moves)
    if (h & (h - 1)) == 0:
        moves[0] = top_bit(h)
        return 1
    return void_moves(c, p, h, moves)


cdef inline int gen_moves(Ctx* c, int p, int* moves) noexcept nogil:
    """Distinct legal cards of the leader p (c.ntrick == 0; a follower's come from
    follower_moves), one per group of equivalent cards (class_tops), ordered best-first: two
    passes, the distinct cards (suit by suit, high to low), then, only when there is a
    choice, their ordering scores and a stable insertion sort."""
    cdef uint32_t h = c.m1[p]
    cdef uint32_t f, present, hs, rest, opp, lho, rho, prt
    cdef int n = 0, s, b, i, j, k, q, top_opp = -1, top_part = -1, ruff = 0, last_s = -1
    cdef int scores[16]
    cdef int sc, mv, pruff = 0, top_l, top_r, low_adj = 0
    cdef bint opp_t, toward = 0
    if (h & (h - 1)) == 0:
        # one legal card
        moves[0] = top_bit(h)
        return 1
    present = c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]
    rest = h
    while rest:         # the suits of the legal cards, lowest first
        s = __builtin_ctz(rest) >> 3
        hs = class_tops(c, s, (rest >> (8 * s)) & 0xFF, present)
        rest &= ~SUITMASK[s]
        while hs:
            b = 31 - __builtin_clz(hs)
            hs ^= (<uint32_t>1) << b
            moves[n] = 8 * s + b
            n += 1
    if n == 1:
        return 1
    opp_t = c.trump >= 0 and (
        (c.m1[(p + 1) & 3] | c.m1[(p + 3) & 3]) & SUITMASK[c.trump]) != 0
    for i in range(n):
        mv = moves[i]
        s = mv >> 3
        b = mv & 7
        # ordering score, best first
        if s != last_s:
            # lead: who holds the best card out among the others, and can an opponent ruff?
            last_s = s
            lho = (c.m1[(p + 1) & 3] >> (8 * s)) & 0xFF
            rho = (c.m1[(p + 3) & 3] >> (8 * s)) & 0xFF
            prt = (c.m1[(p + 2) & 3] >> (8 * s)) & 0xFF
            opp = lho | rho
            top_opp = top_bit(opp)
            top_part = top_bit(prt)
            top_l = top_bit(lho)
            top_r = top_bit(rho)
            # partner's card equal to the opponents' best wins when only RHO holds that
            # card (partner plays first: of two identical cards the first played wins)
            toward = top_part > top_opp or (top_part == top_opp and top_l < top_part)
            # a low lead that is not toward partner's winner, by who holds the cards above
            low_adj = 0
            if top_l > top_r and top_l > top_part:
                low_adj = 5           # LHO holds the best card: LHO must spend it
            elif top_r > top_l and top_r > top_part:
                low_adj = -5          # RHO holds it, plays last and wins cheaply
            f = opp | prt             # the others' second best is partner's: promoted
            f &= ((<uint32_t>1) << top_bit(f)) - 1
            if f and (prt >> top_bit(f)) & 1 and not (opp >> top_bit(f)) & 1:
                low_adj += 15
            if (top_l >= top_r and top_l >= top_part and lho == (<uint32_t>1) << top_l) or (
                    top_r >= top_l and top_r >= top_part and rho == (<uint32_t>1) << top_r):
                low_adj += 20         # the opponents' best card is a singleton: drop it
            # who can ruff a lead of this side suit: an opponent, partner
            ruff = 0
            pruff = 0
            if c.trump >= 0 and s != c.trump:
                for k in range(1, 4):
                    q = (p + k) & 3
                    if (c.m1[q] & SUITMASK[s]) == 0 and (c.m1[q] & SUITMASK[c.trump]) != 0:
                        if k == 2:
                            pruff = 1
                        else:
                            ruff = 1
        # The lead, best first (the scores below): side-suit winners to cash (200 up: first
        # from the suit with the most small cards behind the fewest other winners; a cash
        # partner could make as well after the other cashes), a low lead for partner to ruff
        # when no opponent can (160 - b), a low lead toward partner's winner (150 - b), a
        # trump winner while the opponents hold trumps (135: drawing trumps only after those),
        # the other low leads ordered by who holds the cards above (low_adj), a losing trump
        # lead after the side suits, a trump winner when the opponents hold none (90: after
        # every low lead no opponent can ruff, it wastes a trick's tempo), and last a lead an
        # opponent ruffs.  The order changes the nodes searched, never a value; the weights
        # were chosen on node counts of whole DD tables (benchmarks/RESULTS.md).
        if b >= top_opp:              # beats every opponent's card of the suit
            if s == c.trump:
                sc = 135 if opp_t else 90
            else:
                # hs: our lower cards of the suit; among them, winners too
                hs = (h >> (8 * s)) & (((<uint32_t>1) << b) - 1)
                k = popcount(hs)
                sc = 200 + k - 4 * (popcount(hs >> top_opp) if top_opp >= 0 else k)
                if top_part >= top_opp:
                    sc -= 20          # not urgent: partner has a winner too, or no opponent
                                      # holds the suit (after the other cashes)
        elif toward:                  # low toward partner's winner
            sc = 150 - b
        elif pruff and not ruff:      # low for partner to ruff: before the leads toward
            sc = 160 - b              # partner's winner
        else:
            sc = (90 if s == c.trump else 100) - b + low_adj
        if ruff:                      # an opponent ruffs it: last
            sc -= 120
        # stable insertion: equal scores keep the order of the first pass
        j = i
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        scores[j] = sc
        moves[j] = mv
    return n


cdef inline void add_to_trick(Ctx* c, int p, int e) noexcept nogil:
    """Seat p plays effective card e to the current trick: the first card sets the suit led;
    a later card takes the trick only if strictly higher in the winner's suit, or a trump on a
    non-trump winner (so of two identical cards the first played wins)."""
    cdef int su = e >> 3
    if c.ntrick == 0:
        c.led_suit = su
        c.win_seat = p
        c.win_bit = e
    elif (su == (c.win_bit >> 3) and e > c.win_bit) or (su == c.trump and (c.win_bit >> 3) != c.trump):
        c.win_seat = p
        c.win_bit = e
    c.ntrick += 1
    c.trick_mask |= (<uint32_t>1) << e


cdef inline int last_trick(Ctx* c) noexcept nogil:
    """Seat that wins the last trick when every active seat holds one card."""
    cdef int p = c.to_move, k, e, ws, wb, su
    cdef uint32_t m
    ws = p
    wb = 31 - __builtin_clz(c.m1[p])
    for k in range(c.trick_size - 1):
        p = c.nxt[p]
        e = 31 - __builtin_clz(c.m1[p])
        su = e >> 3
        if (su == (wb >> 3) and e > wb) or (su == c.trump and (wb >> 3) != c.trump):
            ws = p
            wb = e
    return ws


cdef inline int rel_move(Ctx* c, int e) noexcept nogil:
    """A card as (suit slot << 3 | how many cards still out in that suit rank above it)."""
    cdef int s = e >> 3
    cdef uint32_t a = ((c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]) >> (8 * s)) & 0xFF
    return (s << 3) | popcount(a >> ((e & 7) + 1))


cdef inline int abs_move(Ctx* c, int r) noexcept nogil:
    """Inverse of rel_move for the current hands (-1 if no such card is out)."""
    cdef int s = r >> 3, j = r & 7, b
    cdef uint32_t a = ((c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]) >> (8 * s)) & 0xFF
    for b in range(7, -1, -1):
        if a & ((<uint32_t>1) << b):
            if j == 0:
                return 8 * s + b
            j -= 1
    return -1
