# The lone-hand exchange search: the best card exchange for a lone bid, in C over the core.
#
# A lone bid with an exchange is worth the best, over every legal exchange, of the lone tricks
# that follow (RULES.md §2, "Lone bids and card exchanges").  Only the bidder's final hand
# matters (the partner sits out, so whatever the partner keeps is out of play), so the
# exchanges are enumerated as final hands:
#
# - give-first (`standard` 12): the partner gives k cards, the bidder then discards any k of
#   the hand plus the cards received (final = H + G - D, D drawn from H + G);
# - discard-first / blind (`double32` loners, the `double48` option): the bidder lays down k
#   of the hand as dealt and receives k (final = H - D + G, D drawn from H).
#
# Pruning (all of it exact):
# - equivalent final hands once: two final hands whose cards, squeezed onto the cards still
#   in play (relative ranks, per effective suit), match hold for hold are the same position;
# - "every trick?" first, over the dominant exchanges only: giving the highest cards of a suit
#   the partner holds and discarding the lowest of a suit dominates every other exchange for
#   taking *every* trick (a lone player who takes every trick with a card takes every trick
#   with a higher one of the same suit in its place: the lead never changes hands), and the
#   first exchange that takes every trick ends the search;
#   Before any search a sound filter drops final hands that cannot take every trick (each
#   opponent's trumps need distinct lone trumps at least as high; in NT with the lone player
#   on lead, the same for the suits led);
# - only when nothing takes every trick: the exact best, by asking each remaining exchange
#   "more than the best so far?" (a null-window can_take) and counting exactly only those
#   that pass; under a trump suit a final hand whose trump bound (the opponents win at least
#   as many tricks as either opponent has trumps no distinct higher lone trump can meet) is
#   no better than the best so far is skipped without a search.
#
# Dominance is used for "every trick?" only.  For exact counts it is not proven: where the
# higher card wins a trick the lower one lost, the lead changes hands (a low card can be an
# exit card), so the play no longer mirrors; every class is searched.
#
# The effective card layout (effective suit * 8 + order) and the squeeze table are the core's
# own (cimported from bideuchre.search._search, installed from bideuchre.rules by bideuchre.search.solve).

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset, memcpy

from ._search cimport (Ctx, ctx_init, ctx_free, solve_root, can_take_root,
                             LAYOUT as LAY, squeeze_key, _layout_ready)

cdef enum:
    MAXK = 12

cdef struct Cand:
    uint32_t key[6]
    uint8_t give[MAXK]
    uint8_t disc[MAXK]
    int score
    int dom
    int may_all          # may take every trick (may_take_all); 0: surely cannot
    int ub               # upper bound on the lone tricks (trump_bound), -1 until worked out


cdef struct ExchangeSet:
    uint8_t h[24]        # bidder's hand (counts)
    uint8_t p[24]        # partner's hand
    uint8_t o1[24]       # opponents
    uint8_t o2[24]
    uint32_t m1[3]       # effective-layout masks: [0] scratch for the final hand, [1] [2] opponents
    uint32_t m2[3]
    int strain
    int k
    int give_first
    int lone_leads
    Cand* cands
    int n
    int cap
    int* table           # open-addressing hash set: index + 1, 0 empty
    int tmask
    int oom


cdef int count_combos(const uint8_t* cnt, int start, int k) noexcept nogil:
    """Number of k-card multisets drawn from the counts (cards from ``start`` on)."""
    cdef int c, t, n = 0
    if k == 0:
        return 1
    for c in range(start, 24):
        if cnt[c] == 0:
            continue
        for t in range(1, cnt[c] + 1):
            if t > k:
                break
            n += count_combos(cnt, c + 1, k - t)
    return n


cdef int list_combos(const uint8_t* cnt, int start, int k, uint8_t* cur, int depth,
                     uint8_t* out, int n, int width) noexcept nogil:
    """Write every k-card multiset (sorted card ids) as rows of ``width`` into out; returns
    the new row count."""
    cdef int c, t, i
    if k == 0:
        for i in range(width):
            out[n * width + i] = cur[i]
        return n + 1
    for c in range(start, 24):
        if cnt[c] == 0:
            continue
        for t in range(1, cnt[c] + 1):
            if t > k:
                break
            for i in range(t):
                cur[depth + i] = <uint8_t>c
            n = list_combos(cnt, c + 1, k - t, cur, depth + t, out, n, width)
    return n


cdef inline uint64_t key_hash(const uint32_t* key) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(6):
        h ^= key[i]
        h *= 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef void hand_masks(const uint8_t* f, int strain, uint32_t* m1, uint32_t* m2) noexcept nogil:
    """A hand's cards in the effective layout: m1 one copy or more, m2 both copies."""
    cdef int c
    cdef uint32_t bit
    m1[0] = 0
    m2[0] = 0
    for c in range(24):
        if f[c]:
            bit = (<uint32_t>1) << LAY[strain][c]
            m1[0] |= bit
            if f[c] >= 2:
                m2[0] |= bit


cdef inline void make_key(const uint32_t* m1, const uint32_t* m2, uint32_t* key) noexcept nogil:
    """Relative-rank key of three hands (lone, opponents): equivalent final hands share it."""
    squeeze_key(m1, m2, 3, 1, key)


cdef bint is_top(const uint8_t* pool, const uint8_t* chosen, int k, int strain, bint top) noexcept nogil:
    """Whether, in every effective suit, the chosen cards are the highest (top) or lowest
    (not top) of the pool's cards of that suit."""
    cdef int rest[24]
    cdef int i, c, s, v, w
    for c in range(24):
        rest[c] = pool[c]
    for i in range(k):
        rest[chosen[i]] -= 1
    for i in range(k):
        v = LAY[strain][chosen[i]]
        s = v >> 3
        for c in range(24):
            if rest[c] > 0:
                w = LAY[strain][c]
                if (w >> 3) == s:
                    if top and w > v:
                        return 0
                    if not top and w < v:
                        return 0
    return 1


cdef int suit_values(const uint8_t* cnt, int strain, int suit, int* out) noexcept nogil:
    """The layout values of the cards ``cnt`` holds in effective ``suit`` (a value twice for
    both copies), ascending; returns how many."""
    cdef int n = 0, c, t, v, i, j
    for c in range(24):
        v = LAY[strain][c]
        if (v >> 3) == suit:
            for t in range(cnt[c]):
                out[n] = v
                n += 1
    for i in range(1, n):           # insertion sort: n is small
        v = out[i]
        j = i
        while j > 0 and out[j - 1] > v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = v
    return n


cdef bint covered(const uint8_t* f, const uint8_t* o, int strain, int suit, int limit) noexcept nogil:
    """Hall's condition: the ``limit`` highest cards of ``o`` in effective ``suit`` (all when
    limit < 0) can each be met by a distinct card of ``f`` of that suit at least as high."""
    cdef int ov[24]
    cdef int n = suit_values(o, strain, suit, ov), m, i, c, v, need, have
    m = n if limit < 0 or limit >= n else limit
    for i in range(m):              # the i-th highest of o
        need = i + 1
        have = 0
        for c in range(24):
            if f[c]:
                v = LAY[strain][c]
                if (v >> 3) == suit and v >= ov[n - 1 - i]:
                    have += f[c]
        if have < need:
            return 0
    return 1


cdef bint may_take_all(const uint8_t* f, const uint8_t* o1, const uint8_t* o2, int strain,
                       bint lone_leads) noexcept nogil:
    """A necessary condition for the lone hand ``f`` to take every trick (sound: False means it
    cannot).  Every trick is the lone player's, so every card an opponent plays is met in its
    trick by a distinct card of the lone hand that beats it (or equals it, played first):
    - under a trump suit, each opponent's trumps need distinct lone trumps at least as high;
    - in NT/NTL with the lone player on lead, the lone player leads every trick, so for each
      suit the lone hand holds m cards of, each opponent's m highest cards of it (which the
      opponent may play first) need distinct lone cards of the suit at least as high."""
    cdef int s, m, c
    if strain < 4:
        return covered(f, o1, strain, strain, -1) and covered(f, o2, strain, strain, -1)
    if not lone_leads:
        return 1
    for s in range(4):
        m = 0
        for c in range(24):
            if f[c] and (LAY[strain][c] >> 3) == s:
                m += f[c]
        if m > 0 and not (covered(f, o1, strain, s, m) and covered(f, o2, strain, s, m)):
            return 0
    return 1


cdef int unmatched_trumps(const uint8_t* f, const uint8_t* o, int strain) noexcept nogil:
    """How many of an opponent's trumps cannot each be met by a distinct lone trump at least
    as high (the opponent's trump count minus a maximum such matching)."""
    cdef int lv[24]
    cdef int ov[24]
    cdef int nl = suit_values(f, strain, strain, lv), no = suit_values(o, strain, strain, ov)
    cdef int i, j, matched = 0
    # greedy from the lowest: each opponent trump takes the lowest free lone trump >= it
    j = 0
    for i in range(no):
        while j < nl and lv[j] < ov[i]:
            j += 1
        if j == nl:
            break
        matched += 1
        j += 1
    return no - matched


cdef int trump_bound(const uint8_t* f, const uint8_t* o1, const uint8_t* o2, int strain,
                     int left) noexcept nogil:
    """An upper bound on the lone tricks under a trump suit (sound): each of an opponent's
    trumps is played in a different trick, and the lone player wins that trick only with a
    higher trump (or an identical one played first), a different one for each; so the
    opponents win at least as many tricks as either opponent has trumps left unmatched."""
    cdef int u1, u2
    if strain >= 4:
        return left
    u1 = unmatched_trumps(f, o1, strain)
    u2 = unmatched_trumps(f, o2, strain)
    return left - (u1 if u1 > u2 else u2)


cdef int score_hand(const uint8_t* f, int strain) noexcept nogil:
    """A rough strength for ordering: trumps and high cards first, short side suits."""
    cdef int c, v, s, sc = 0
    cdef int lens[4]
    lens[0] = lens[1] = lens[2] = lens[3] = 0
    for c in range(24):
        if f[c]:
            v = LAY[strain][c]
            s = v >> 3
            lens[s] += f[c]
            if strain < 4 and s == strain:
                sc += f[c] * (16 + 2 * (v & 7))
            else:
                sc += f[c] * (v & 7) * (v & 7)
    if strain < 4:
        for s in range(4):
            if s != strain and lens[s] == 0:
                sc += 6
    return sc


cdef int add_cand(ExchangeSet* e, const uint8_t* give, const uint8_t* disc) noexcept nogil:
    """Add the final hand H + give - disc (once per equivalence class).  Returns -1 when out
    of memory."""
    cdef uint8_t f[24]
    cdef uint32_t key[6]
    cdef int i, j, idx, dom
    cdef uint64_t h
    cdef uint8_t pool[24]
    cdef Cand* nc
    cdef int* nt
    cdef int ncap
    for i in range(24):
        f[i] = e.h[i]
    for i in range(e.k):
        f[give[i]] += 1
    for i in range(e.k):
        f[disc[i]] -= 1
    hand_masks(f, e.strain, &e.m1[0], &e.m2[0])
    make_key(e.m1, e.m2, key)
    # dominance: top cards given, bottom cards discarded (of the discard pool)
    dom = is_top(e.p, give, e.k, e.strain, 1)
    if dom:
        for i in range(24):
            pool[i] = e.h[i]
        if e.give_first:
            for i in range(e.k):
                pool[give[i]] += 1
        dom = is_top(pool, disc, e.k, e.strain, 0)
    h = key_hash(key)
    j = <int>(h & <uint64_t>e.tmask)
    while e.table[j] != 0:
        idx = e.table[j] - 1
        if (e.cands[idx].key[0] == key[0] and e.cands[idx].key[1] == key[1] and
                e.cands[idx].key[2] == key[2] and e.cands[idx].key[3] == key[3] and
                e.cands[idx].key[4] == key[4] and e.cands[idx].key[5] == key[5]):
            if dom and not e.cands[idx].dom:
                # keep a dominant representative (same value, and the dominant one is tried first)
                e.cands[idx].dom = 1
                memcpy(e.cands[idx].give, give, e.k)
                memcpy(e.cands[idx].disc, disc, e.k)
            return 0
        j = (j + 1) & e.tmask
    if e.n == e.cap:
        ncap = e.cap * 2
        nc = <Cand*>realloc(e.cands, ncap * sizeof(Cand))
        if nc == NULL:
            return -1
        e.cands = nc
        e.cap = ncap
    if 2 * (e.n + 1) > e.tmask + 1:
        # grow the hash set
        nt = <int*>calloc(2 * (e.tmask + 1), sizeof(int))
        if nt == NULL:
            return -1
        free(e.table)
        e.table = nt
        e.tmask = 2 * (e.tmask + 1) - 1
        for i in range(e.n):
            j = <int>(key_hash(e.cands[i].key) & <uint64_t>e.tmask)
            while e.table[j] != 0:
                j = (j + 1) & e.tmask
            e.table[j] = i + 1
        j = <int>(h & <uint64_t>e.tmask)
        while e.table[j] != 0:
            j = (j + 1) & e.tmask
    idx = e.n
    e.n += 1
    e.table[j] = idx + 1
    for i in range(6):
        e.cands[idx].key[i] = key[i]
    memset(e.cands[idx].give, 0, MAXK)
    memset(e.cands[idx].disc, 0, MAXK)
    memcpy(e.cands[idx].give, give, e.k)
    memcpy(e.cands[idx].disc, disc, e.k)
    e.cands[idx].score = score_hand(f, e.strain)
    e.cands[idx].dom = dom
    e.cands[idx].may_all = -1  # worked out when first needed (cand_may_all)
    e.cands[idx].ub = -1
    return 0


cdef int enumerate_all(ExchangeSet* e) noexcept nogil:
    """Every legal exchange into e.cands, one per class of equivalent final hands."""
    cdef int ng, nd, gi, di, i
    cdef uint8_t cur[MAXK]
    cdef uint8_t* gl = NULL
    cdef uint8_t* dl = NULL
    cdef uint8_t pool[24]
    cdef int rc = 0
    ng = count_combos(e.p, 0, e.k)
    gl = <uint8_t*>malloc((ng if ng > 0 else 1) * MAXK)
    if gl == NULL:
        return -1
    ng = list_combos(e.p, 0, e.k, cur, 0, gl, 0, MAXK)
    if not e.give_first:
        nd = count_combos(e.h, 0, e.k)
        dl = <uint8_t*>malloc((nd if nd > 0 else 1) * MAXK)
        if dl == NULL:
            free(gl)
            return -1
        nd = list_combos(e.h, 0, e.k, cur, 0, dl, 0, MAXK)
    for gi in range(ng):
        if e.give_first:
            for i in range(24):
                pool[i] = e.h[i]
            for i in range(e.k):
                pool[gl[gi * MAXK + i]] += 1
            nd = count_combos(pool, 0, e.k)
            free(dl)
            dl = <uint8_t*>malloc((nd if nd > 0 else 1) * MAXK)
            if dl == NULL:
                rc = -1
                break
            nd = list_combos(pool, 0, e.k, cur, 0, dl, 0, MAXK)
        for di in range(nd):
            if add_cand(e, &gl[gi * MAXK], &dl[di * MAXK]) != 0:
                rc = -1
                break
        if rc:
            break
    free(gl)
    free(dl)
    return rc


cdef inline void cand_hand(ExchangeSet* e, Cand* cd, uint8_t* f) noexcept nogil:
    """The lone hand after a candidate exchange: the hand, plus the gifts, less the discards."""
    cdef int i
    for i in range(24):
        f[i] = e.h[i]
    for i in range(e.k):
        f[cd.give[i]] += 1
    for i in range(e.k):
        f[cd.disc[i]] -= 1


cdef bint cand_may_all(ExchangeSet* e, Cand* cd) noexcept nogil:
    """may_take_all for a candidate, computed once."""
    cdef uint8_t f[24]
    if cd.may_all < 0:
        cand_hand(e, cd, f)
        cd.may_all = may_take_all(f, e.o1, e.o2, e.strain, e.lone_leads)
    return cd.may_all != 0


cdef int cand_ub(ExchangeSet* e, Cand* cd, int left) noexcept nogil:
    """trump_bound for a candidate, computed once."""
    cdef uint8_t f[24]
    if cd.ub < 0:
        cand_hand(e, cd, f)
        cd.ub = trump_bound(f, e.o1, e.o2, e.strain, left)
    return cd.ub


cdef void sort_cands(Cand* a, int n) noexcept nogil:
    """Insertion sort: dominant first, then by score, best first (n is small)."""
    cdef int i, j
    cdef Cand t
    for i in range(1, n):
        t = a[i]
        j = i
        while j > 0 and (a[j - 1].dom < t.dom or (a[j - 1].dom == t.dom and a[j - 1].score < t.score)):
            a[j] = a[j - 1]
            j -= 1
        a[j] = t


cdef struct Game:
    uint8_t counts[96]
    int strain
    int leader
    int out
    int lone
    int left


cdef void load_game(Game* g, const uint8_t[:, ::1] counts, int strain, int leader,
                    int lone) noexcept:
    """The lone hand of a deal as the search plays it (RULES.md §1 "Lone hands"): the partner's
    cards out of play (its seat is ``out``), ``left`` the lone hand's cards (the tricks to
    play), the first lead by ``leader``."""
    cdef int i
    g.strain = strain
    g.lone = lone
    g.out = (lone + 2) & 3
    g.leader = leader
    for i in range(96):
        g.counts[i] = counts[i // 24, i % 24]
    for i in range(24):
        g.counts[g.out * 24 + i] = 0
    g.left = 0
    for i in range(24):
        g.left += g.counts[lone * 24 + i]


cdef void load_final(Game* g, const ExchangeSet* e, const Cand* cd) noexcept nogil:
    cdef int i
    for i in range(24):
        g.counts[g.lone * 24 + i] = e.h[i]
    for i in range(e.k):
        g.counts[g.lone * 24 + cd.give[i]] += 1
    for i in range(e.k):
        g.counts[g.lone * 24 + cd.disc[i]] -= 1


cdef bint lone_can(Ctx* c, Game* g, int t) noexcept nogil:
    """Can the lone seat take at least t tricks?"""
    if t <= 0:
        return 1
    if t > g.left:
        return 0
    if (g.lone & 1) == 0:
        return can_take_root(c, g.counts, g.strain, g.leader, g.out, NULL, 0, t) != 0
    return can_take_root(c, g.counts, g.strain, g.leader, g.out, NULL, 0, g.left - t + 1) == 0


cdef int lone_exact(Ctx* c, Game* g, int guess) noexcept nogil:
    cdef int ns
    if (g.lone & 1) == 0:
        return solve_root(c, g.counts, g.strain, g.leader, g.out, NULL, 0, guess)
    ns = solve_root(c, g.counts, g.strain, g.leader, g.out, NULL, 0,
                    g.left - guess if guess >= 0 else -1)
    return g.left - ns


cdef enum:
    GIFTS_MAX = 1024     # dominant gifts: at most one per way of spreading k over 4 suits


cdef inline int _times(const uint8_t* row, int d, int card) noexcept nogil:
    cdef int j, n = 0
    for j in range(d):
        if row[j] == card:
            n += 1
    return n


cdef void _spread(const int* cards, const int* start, const int* size, int u,
                  int left, uint8_t* cur, int depth, uint8_t* gifts, int* ng) noexcept nogil:
    """Every way of taking ``left`` cards from the tops of effective suits u … 3 (``cards``
    sorted high → low within each suit's block ``start[u] … start[u] + size[u]``)."""
    cdef int t, j
    if left == 0:
        if ng[0] < GIFTS_MAX:
            for j in range(depth):
                gifts[ng[0] * MAXK + j] = <uint8_t>cur[j]
            ng[0] += 1
        return
    if u == 4 or depth + left > MAXK:
        return
    t = size[u] if size[u] < left else left
    while t >= 0:
        for j in range(t):
            cur[depth + j] = <uint8_t>cards[start[u] + j]
        _spread(cards, start, size, u + 1, left - t, cur, depth + t, gifts, ng)
        t -= 1


cdef int dominant_gifts(const uint8_t* p, int strain, int k, uint8_t* gifts) noexcept nogil:
    """The dominant k-card gifts from the partner's counts ``p``: the top t_u cards of each
    effective suit u with sum t_u = k (a card twice when both copies are held).  Rows of MAXK
    in ``gifts``; returns how many (at most GIFTS_MAX: 4 suits give at most C(k+3, 3) ≤ 455
    for k ≤ 12)."""
    cdef int vals[24]
    cdef int cards[24]
    cdef int start[4]
    cdef int size[4]
    cdef int n = 0, u, c, t, i, j, v, w
    cdef uint8_t cur[24]           # at most k <= MAXK used (depth + t <= k)
    cdef int ng = 0
    for u in range(4):
        start[u] = n
        size[u] = 0
        for c in range(24):
            v = LAY[strain][c]
            if (v >> 3) == u:
                for t in range(p[c]):
                    # insertion, high -> low within the suit's block
                    j = n
                    while j > start[u] and vals[j - 1] < v:
                        vals[j] = vals[j - 1]
                        cards[j] = cards[j - 1]
                        j -= 1
                    vals[j] = v
                    cards[j] = c
                    n += 1
                    size[u] += 1
    _spread(cards, start, size, 0, k, cur, 0, gifts, &ng)
    return ng


cdef bint no_bad_suit(const uint8_t* f, const uint8_t* o1, const uint8_t* o2,
                      int strain) noexcept nogil:
    """No effective suit in which the lone hand ``f`` holds cards and an opponent holds a card
    strictly higher than the lone hand's top card of it (the lone hand on lead: sound)."""
    cdef int topf[4]
    cdef int topo[4]
    cdef int c, v, u
    for u in range(4):
        topf[u] = -1
        topo[u] = -1
    for c in range(24):
        v = LAY[strain][c]
        u = v >> 3
        if f[c] and v > topf[u]:
            topf[u] = v
        if (o1[c] or o2[c]) and v > topo[u]:
            topo[u] = v
    for u in range(4):
        if topf[u] >= 0 and topf[u] < topo[u]:
            return 0
    return 1


cdef bint laid_down_takes_all(Ctx* c, Game* g, const uint8_t* deal, const uint8_t* disc, int d,
                              const uint8_t* gifts, int ng, int k,
                              long long* searches) noexcept nogil:
    """Some dominant gift makes the lone hand (dealt hand less ``disc``) take every trick."""
    cdef int gi, i, lone = g.lone
    cdef uint8_t* f
    cdef const uint8_t* o1 = &deal[((lone + 1) & 3) * 24]
    cdef const uint8_t* o2 = &deal[((lone + 3) & 3) * 24]
    for i in range(96):
        g.counts[i] = deal[i]
    for i in range(24):
        g.counts[g.out * 24 + i] = 0
    f = &g.counts[lone * 24]
    for i in range(d):
        f[disc[i]] -= 1
    for gi in range(ng):
        for i in range(k):
            f[gifts[gi * MAXK + i]] += 1
        g.left = 0
        for i in range(24):
            g.left += f[i]
        if ((g.leader != lone or no_bad_suit(f, o1, o2, g.strain))
                and may_take_all(f, o1, o2, g.strain, g.leader == lone)):
            searches[0] += 1
            if lone_can(c, g, g.left):
                return 1
        for i in range(k):
            f[gifts[gi * MAXK + i]] -= 1
    return 0


cdef class LoneSearch:
    """A search context (own transposition table of ``2**tt_bits`` entries) for lone hands.

    Not thread-safe: one per thread.  ``counts`` are the deal's 4 × 24 card counts (uint8).
    """

    cdef Ctx c
    cdef public long long searches     # searches run (each a null-window or an exact count)
    cdef public long long exact        # of which exact counts
    cdef public long long classes      # distinct final hands enumerated

    def __cinit__(self, int tt_bits=16):
        if tt_bits < 4 or tt_bits > 28:
            raise ValueError(f"tt_bits must be 4..28, got {tt_bits}")
        if ctx_init(&self.c, tt_bits) != 0:
            raise MemoryError("cannot allocate the transposition table")
        self.searches = 0
        self.exact = 0
        self.classes = 0

    def __dealloc__(self):
        ctx_free(&self.c)

    @property
    def nodes(self):
        return self.c.nodes

    def plain(self, const uint8_t[:, ::1] counts, int strain, int leader, int lone, bint all_only):
        """No exchange: (lone tricks, or -1 when only "every trick?" was asked; every trick?)."""
        cdef Game g
        cdef int v
        cdef bint a
        _check(counts, strain, leader, lone)
        load_game(&g, counts, strain, leader, lone)
        with nogil:
            if all_only:
                a = may_take_all(&g.counts[lone * 24], &g.counts[((lone + 1) & 3) * 24],
                                 &g.counts[((lone + 3) & 3) * 24], strain, leader == lone)
                if a:
                    a = lone_can(&self.c, &g, g.left)
                v = -1
            else:
                v = lone_exact(&self.c, &g, 1)
                a = v == g.left
                self.exact += 1
        self.searches += 1
        return v, a

    def best(self, const uint8_t[:, ::1] counts, int strain, int leader, int lone, int k,
             bint give_first, bint all_only, int known=-1):
        """The best exchange of k cards each way for the lone seat.

        ``known``: lone tricks some exchange is known to reach (-1: none; give-first passes
        the value of the hand as dealt, which giving and discarding the same card keeps).
        Returns ``(tricks, all, give, discard, classes)``: lone tricks with the best exchange
        (-1 when ``all_only`` and nothing takes every trick), whether that is every trick,
        the cards given and discarded (card ids; empty when nothing beats ``known``), and the
        number of distinct final hands.
        """
        cdef ExchangeSet e
        cdef Game g
        cdef int i, lb, ub, v, best, rc, n_all
        cdef bint found = 0
        _check(counts, strain, leader, lone)
        if k < 0 or k > MAXK:
            raise ValueError(f"exchange size {k} out of range 0..{MAXK}")
        memset(&e, 0, sizeof(ExchangeSet))
        for i in range(24):
            e.h[i] = counts[lone, i]
            e.p[i] = counts[(lone + 2) & 3, i]
            e.o1[i] = counts[(lone + 1) & 3, i]
            e.o2[i] = counts[(lone + 3) & 3, i]
        e.strain = strain
        e.k = k
        e.give_first = give_first
        e.lone_leads = leader == lone
        hand_masks(e.o1, strain, &e.m1[1], &e.m2[1])
        hand_masks(e.o2, strain, &e.m1[2], &e.m2[2])
        e.cap = 64
        e.cands = <Cand*>malloc(e.cap * sizeof(Cand))
        e.tmask = 127
        e.table = <int*>calloc(e.tmask + 1, sizeof(int))
        if e.cands == NULL or e.table == NULL:
            free(e.cands)
            free(e.table)
            raise MemoryError()
        load_game(&g, counts, strain, leader, lone)
        best = -1
        lb = known
        with nogil:
            rc = enumerate_all(&e)
            if rc == 0 and e.n > 0:
                sort_cands(e.cands, e.n)
                # every trick? over the dominant exchanges (sorted first)
                for i in range(e.n):
                    if not e.cands[i].dom:
                        break
                    if not cand_may_all(&e, &e.cands[i]):
                        continue
                    load_final(&g, &e, &e.cands[i])
                    self.searches += 1
                    if lone_can(&self.c, &g, g.left):
                        best = i
                        lb = g.left
                        found = 1
                        break
                if not found and not all_only:
                    ub = g.left - 1
                    for i in range(e.n):
                        if lb >= ub:
                            break
                        if lb + 1 >= g.left and not cand_may_all(&e, &e.cands[i]):
                            continue
                        if lb >= 0 and cand_ub(&e, &e.cands[i], g.left) <= lb:
                            continue
                        load_final(&g, &e, &e.cands[i])
                        self.searches += 1
                        if lb < 0:
                            self.exact += 1
                            v = lone_exact(&self.c, &g, -1)
                        elif lone_can(&self.c, &g, lb + 1):
                            self.searches += 1
                            self.exact += 1
                            v = lone_exact(&self.c, &g, lb + 1)
                        else:
                            continue
                        if v > lb:
                            lb = v
                            best = i
        try:
            if rc != 0:
                raise MemoryError("out of memory enumerating exchanges")
            n_all = e.n
            self.classes += n_all
            if best < 0:
                return lb, lb == g.left, (), (), n_all
            give = tuple(int(e.cands[best].give[i]) for i in range(k))
            disc = tuple(int(e.cands[best].disc[i]) for i in range(k))
            return lb, lb == g.left, give, disc, n_all
        finally:
            free(e.cands)
            free(e.table)


    def laid_down_all(self, const uint8_t[:, :, ::1] counts, const int[::1] strains, int leader,
                      int lone, const uint8_t[:, ::1] choices, int give, uint8_t[:, :, ::1] out):
        """For each deal i, laid-down choice c and strain index k: can the lone seat take every
        trick with the cards ``choices[c]`` laid down from its hand as dealt and the partner's
        best gift of ``give`` cards?  Into ``out[i, c, k]`` (1 yes, 0 no).

        ``counts``: ``(S, 4, 24)`` uint8; ``strains``: strain ids; ``choices``: ``(m, d)`` card
        ids, each row a multiset the lone hand holds (d: the cards laid down; RULES.md §2,
        discard-first exchanges).  The gifts tried are the dominant ones only (the highest
        cards of each effective suit the partner holds, one gift per way of spreading ``give``
        over the suits): a lone hand that takes every trick with a card takes every trick with
        a higher card of that suit in its place, the lead never changing hands.  Sound filters
        skip searches that must fail: :func:`may_take_all`, and, with the lone seat on lead, a
        suit in which an opponent holds a card strictly higher than the final hand's top card
        of it (the opponent keeps it until the suit is led; of identical cards the first
        played wins, RULES.md §1).  The same answers as ``fixed_tricks`` over every
        gift (``tests/test_advice.py``).  Releases the GIL.  Raises ValueError for bad shapes, a choice
        the hand lacks or ``give`` out of range."""
        cdef Py_ssize_t S = counts.shape[0], m = choices.shape[0], K = strains.shape[0]
        cdef int d = <int>choices.shape[1], i, ci, k, j, st, partner = (lone + 2) & 3
        cdef Game g
        cdef uint8_t gifts[GIFTS_MAX * MAXK]
        cdef int ng
        if counts.shape[1] != 4 or counts.shape[2] != 24:
            raise ValueError("counts must be S x 4 x 24")
        if out.shape[0] != S or out.shape[1] != m or out.shape[2] != K:
            raise ValueError("out must be S x choices x strains")
        if give < 0 or give > MAXK or d > MAXK:
            raise ValueError(f"exchange size out of range 0..{MAXK}")
        for k in range(K):
            if strains[k] < 0 or strains[k] > 5:
                raise ValueError("strain out of range")
        for i in range(S):
            _check(counts[i], 0, leader, lone)
            for ci in range(m):
                for j in range(d):
                    if choices[ci, j] > 23:
                        raise ValueError("card id out of range")
                for j in range(24):
                    if _times(&choices[ci, 0], d, j) > counts[i, lone, j]:
                        raise ValueError(f"choice {ci} lays down a card the lone hand lacks")
        g.lone = lone
        g.out = partner
        g.leader = leader
        with nogil:
            for i in range(S):
                for k in range(K):
                    st = strains[k]
                    g.strain = st
                    ng = dominant_gifts(&counts[i, partner, 0], st, give, gifts)
                    for ci in range(m):
                        out[i, ci, k] = laid_down_takes_all(&self.c, &g, &counts[i, 0, 0],
                                                            &choices[ci, 0], d, gifts, ng, give,
                                                            &self.searches)


cdef int _check(const uint8_t[:, ::1] counts, int strain, int leader, int lone) except -1:
    if not _layout_ready:
        raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
    if counts.shape[0] != 4 or counts.shape[1] != 24:
        raise ValueError("counts must be 4 x 24")
    if strain < 0 or strain > 5 or lone < 0 or lone > 3 or leader < 0 or leader > 3:
        raise ValueError("strain, leader or lone seat out of range")
    if leader == ((lone + 2) & 3):
        raise ValueError("the seat sitting out cannot lead")
    return 0
