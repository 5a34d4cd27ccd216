# Included by _search.pyx (one C module: the compiler inlines across these files).
# The alpha-beta search.

# ---------------------------------------------------------------------------------------------
# Search

cdef inline int play_moves(Ctx* c, int p, int need, int left, int* moves, int n,
                           int* cutp) noexcept nogil:
    """search's move loop (see search): plays moves[0:n] of seat p in order, skipping the small
    cards, until one cuts; returns the best value, sets c.rel to the marks of the result (the
    cutting move's, or at an all node the union, the classes' spans added to c.span) and, at
    a trick boundary (cutp not NULL), *cutp to the cutting move (rel_move; left alone when
    none cuts)."""
    cdef int small[4]       # per suit: p's cards below this order are covered by a searched one
    cdef int i, e, won, v, k, su, ws, best
    cdef uint32_t bit, acc = 0, mark, others, below, run, o
    cdef bint ns = (p & 1) == 0
    cdef int s_ntrick, s_led, s_ws, s_wb, s_tm
    cdef uint32_t s_tmask
    cdef bint from_m2
    best = -1 if ns else 99
    s_ntrick = c.ntrick
    s_led = c.led_suit
    s_ws = c.win_seat
    s_wb = c.win_bit
    s_tm = c.to_move
    s_tmask = c.trick_mask
    small[0] = small[1] = small[2] = small[3] = 0
    for i in range(n):
        e = moves[i]
        if (e & 7) < small[e >> 3]:
            continue        # a small card: the proof of a searched one holds for it
        bit = (<uint32_t>1) << e
        from_m2 = (c.m2[p] & bit) != 0
        if from_m2:
            c.m2[p] ^= bit
        else:
            c.m1[p] ^= bit
        add_to_trick(c, p, e)
        if c.ntrick == c.trick_size:
            ws = c.win_seat
            won = 1 if (ws & 1) == 0 else 0
            # the winner beat a card of its suit (an equal copy counts): its rank is relevant
            mark = 0
            if popcount(c.trick_mask & SUITMASK[c.win_bit >> 3]) >= 2 or \
                    popcount(c.trick_mask) < c.trick_size:
                mark = (<uint32_t>1) << c.win_bit
            c.ntrick = 0
            c.trick_mask = 0
            c.to_move = ws
            v = won + search(c, need - won, left - 1)
            mark |= c.rel
        else:
            c.to_move = c.nxt[p]
            v = search_mid(c, need, left)
            mark = c.rel
        c.ntrick = s_ntrick
        c.led_suit = s_led
        c.win_seat = s_ws
        c.win_bit = s_wb
        c.to_move = s_tm
        c.trick_mask = s_tmask
        if from_m2:
            c.m2[p] |= bit
        else:
            c.m1[p] |= bit
        if ns:
            if v > best:
                best = v
            if v >= need:
                acc = mark
                if cutp != NULL:
                    cutp[0] = rel_move(c, e)
                break
        else:
            if v < best:
                best = v
            if v < need:
                acc = mark
                if cutp != NULL:
                    cutp[0] = rel_move(c, e)
                break
        acc |= mark
        su = e >> 3
        k = (mark >> (8 * su)) & 0xFF
        k = lowest_kept(k, (c.span >> (8 * su)) & 0xFF) if k else 8
        if (e & 7) < k and k > small[su]:
            small[su] = k
    else:
        # an all node: the span of each move's class (see the docstring), p's cards below it
        # down to the first card of another seat.  (A cut node's proof plays its one card:
        # in Q the same card, or a small one of the same suit.)
        others = c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]
        for i in range(n):
            bit = (<uint32_t>1) << moves[i]
            below = (bit - 1) & SUITMASK[moves[i] >> 3]
            run = c.m1[p] & below
            o = others & below
            if o:
                run &= ~((((<uint32_t>1) << top_bit(o)) << 1) - 1)
            if run:
                c.span |= bit - (run & (~run + 1))
    c.rel = acc
    return best


cdef int search_mid(Ctx* c, int need, int left) noexcept nogil:
    """search at a node inside a trick (c.ntrick > 0): no tables there, and of the bounds only
    the second seat's sure trick (second_wins); then the moves (a function of its own, so
    that the many nodes inside tricks do not carry the trick boundary's state)."""
    cdef int moves[16]
    cdef int n
    if need <= 0:
        c.rel = 0
        return 0
    if need > left:
        c.rel = 0
        return left
    c.nodes += 1
    # the second seat's side needing one trick that surely wins this one (second_wins)
    if c.ntrick == 1 and c.trick_size == 4:
        if (c.to_move & 1) == 0:
            if need == 1 and second_wins(c):
                return 1
        elif need == left and second_wins(c):
            return left - 1
    c.rel = 0xFFFFFFFFu
    n = follower_moves(c, c.to_move, moves)
    return play_moves(c, c.to_move, need, left, moves, n, NULL)


cdef int search(Ctx* c, int need, int left) noexcept nogil:
    """Fail-soft null-window search: can North-South take at least `need` of the `left` tricks
    still to finish?  Returns v: when v >= need, NS can take at least v; when v < need, NS can
    take at most v.

    Sets c.rel to the cards the result depends on (marks: in each suit, the result holds for
    every position with the same leader, the same suit lengths per seat and the same owners of
    the cards out at or above the suit's lowest mark).  At a trick boundary these are turned
    into the relevant ranks a TT slot stores.  Why the bound carries over to such a position Q
    from the position P searched: Q's play copies P's proof card for card -- the same card for
    a relevant one, any small card of the same seat and suit for a small one (the lengths
    agree, so both exist) -- and every trick goes to the same seat, because
    - the winner of a trick that beat a card of its own suit (an equal copy played later
      included) is marked; a small card wins only a trick with no other card of its suit,
      which stays so in Q;
    - a result from below (the next trick's search, a TT slot, a sure-trick bound, the last
      trick) brings its own marks; a cut node takes the cutting move's, an all node the union;
    - at an all node, each card Q may play must have a searched move of P to copy: the search
      plays one card per class of equivalent cards (gen_moves), so no class may straddle the
      lowest mark.  An all node adds the span of each class (the card down to the lowest card
      of the seat with no other seat's card out between: a superset of the class) to c.span,
      and the trick's boundary extends the mark down across any span it cuts (close_rel).  A
      cut node's proof plays one card, which Q has too (the same, or a small one).  So a
      trick's winner is marked with its whole class where needed, like DDS's winning rank and
      sequence.

    Small cards are searched once (DDS's lowest winning rank, in MakeNext).  When a card x of
    p's in suit s has been searched without a cut and lies below the lowest mark of its result
    in s (the marks closed over the current trick's classes so far, as close_rel does), every
    other card y of p's in s below that mark is skipped: P after y agrees with P after x on
    every relevant card (x and y, both small, change places between p's hand and the trick;
    lengths and the cards above the mark are the same), and the trick goes the same way -- a
    card that beat x in its suit is marked, so above y too, and x itself won only as the one
    card of its suit -- so x's proof copies to P after y and x's bound holds for y.  The node
    keeps x's marks, so a position Q agreeing with P above the final lowest mark (no higher
    than x's) finds, for each small card it may play, x or a skipped card whose proof is x's."""
    cdef int moves[16]
    cdef int sure[2]
    cdef int per[4]
    cdef int n, i, e, p, qt, tops, hint = -1, cut = 255, v, best, k, base, part, lt, want, ws
    cdef int t_top, more
    cdef uint32_t allm = 0, top = 0, acc = 0, mark, saved_span = 0, others, o
    cdef uint32_t own[5]
    cdef uint64_t h = 0, key = 0, xh = 0, sm
    cdef uint64_t xkey[3]
    cdef Bucket* bk = NULL
    cdef Chunk* ch
    cdef Entry* xent
    cdef bint exact
    if c.ntrick > 0:
        return search_mid(c, need, left)
    if need <= 0:
        c.rel = 0
        return 0
    if need > left:
        c.rel = 0
        return left
    c.nodes += 1
    # every card counts unless a return below says less: a bound returned without its own
    # marks stays sound, only less general
    c.rel = 0xFFFFFFFFu
    if left == 1:
        ws = last_trick(c)
        e = top_bit(c.m1[ws])
        others = c.m1[(ws + 1) & 3] | c.m1[(ws + 2) & 3] | c.m1[(ws + 3) & 3]
        c.rel = ((<uint32_t>1) << e) if others & SUITMASK[e >> 3] else 0
        return 1 if (ws & 1) == 0 else 0
    # the exact entry only above c.exact_above tricks left (see Solver.exact_above)
    exact = left > c.exact_above
    if exact:
        make_key(c, xkey)
        xh = hash_key3(xkey)
        __builtin_prefetch(&c.tt[xh & c.tt_mask])     # its bucket loads while we bound
    key = tt_key(c, left)
    h = hash_key(key)
    bk = &c.gt[h & c.gt_mask]
    for i in range(8):      # its key and first slots, in parallel
        __builtin_prefetch((<char*>bk) + 64 * i)
    allm = c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]
    top = top_layout(allm)
    # The partition bucket first: it is most often in the cache, and its deciding slots
    # answer most probes.  Of those the one with the fewest relevant ranks (its marks make
    # the searches above more general).
    mark = 0xFFFFFFFFu
    v = -1
    tt_owners(c, allm, top, own)
    if bk.key == key:
        sm = slot_matches(bk, own)
        while sm:
            k = __builtin_ctzll(sm)
            sm &= sm - 1
            ch = &bk.ch[k >> 3]
            k &= 7
            if ch.lb[k] >= need or ch.ub[k] < need:
                if v < 0 or popcount(ch.rel[k]) < popcount(mark):
                    mark = ch.rel[k]
                    v = ch.lb[k] if ch.lb[k] >= need else ch.ub[k]
            elif hint < 0 and ch.best[k] != 255:
                hint = ch.best[k]
    if v >= 0:
        c.rel = from_top(mark, allm, top)
        return v
    # Then the sure-trick bounds (computed while the exact entry loads): partner's top
    # trumps come on top of the leader's cashing; each side's sure trumps.
    t_top = trump_rounds(c, &more)
    qt = quick_tricks(c, per, t_top, more)
    part = trump_bounds(c, sure)        # partner's top trumps
    lt = qt - per[0] - per[1] - per[2] - per[3]     # the leader's tricks from trumps
    base = lt + part                    # the tricks from trumps
    qt += part
    if sure[c.to_move & 1] > qt:
        qt = base = sure[c.to_move & 1]
        per[0] = per[1] = per[2] = per[3] = 0
        part = -1                       # the side's sure trumps instead
    tops = sure[(c.to_move & 1) ^ 1]
    # Bounds, in the leader's side's tricks: it needs `want` of the `left` for the
    # search's answer to go its way (NS need `need`; EW, `left - need + 1`: then NS take
    # fewer than need).  It takes at least qt, the other side at least tops; a cut counts
    # (and marks) only what it needs (leader_bound, other_bound); then a sure first trick
    # when one is all it needs, an entry to partner after the leader's cashing and
    # partner's cashing.  k: the leader's side's tricks the cut proves (at least; at most
    # for the other side's), -1 for no cut; turned into NS tricks on return.
    want = need if (c.to_move & 1) == 0 else left - need + 1
    k = -1
    if qt >= want:
        k = leader_bound(c, per, base, want, part)
    elif left - tops < want:
        k = left - other_bound(c, left - want + 1, tops)
    elif want == 1 and lead_wins(c):
        k = 1
    elif part >= 0:
        k = entry_bound(c, per, lt, part, want, t_top, more)
        if k == 0:
            k = -1
    if k >= 0:
        return k if (c.to_move & 1) == 0 else left - k
    # Last the exact entry (likely a miss in main memory: prefetched above).
    xent = tt_find(c, xkey, xh) if exact else NULL
    if xent != NULL:
        if xent.lb >= need:
            c.rel = from_top(nibbles_rel(xent.rel_lb) & top, allm, top)
            return xent.lb
        if xent.ub < need:
            c.rel = from_top(nibbles_rel(xent.rel_ub) & top, allm, top)
            return xent.ub
        if xent.best != 255:
            hint = xent.best
    if hint >= 0:
        hint = abs_move(c, hint)
    saved_span = c.span
    c.span = 0
    p = c.to_move
    n = gen_moves(c, p, moves)
    if hint >= 0:
        for i in range(1, n):
            if moves[i] == hint:
                while i > 0:
                    moves[i] = moves[i - 1]
                    i -= 1
                moves[0] = hint
                break
    best = play_moves(c, p, need, left, moves, n, &cut)
    acc = close_rel(c.rel, c.span, allm)
    c.span = saved_span
    o = to_top(acc, allm, top)
    if exact:
        tt_store_exact(c, xkey, xh, left, best, best >= need, cut, rel_nibbles(o))
    if o != top:        # it holds for other positions too
        gt_store(c, bk, key, own, o, left, best, best >= need, cut)
    c.rel = acc
    return best
