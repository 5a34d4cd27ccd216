# The double-dummy search core: alpha-beta over "can North-South take `need` more tricks?"
#
# Everything here is C: hands are 32-bit masks in an *effective layout* chosen per strain (bit
# = effective suit slot * 8 + order within the suit, so the left bower sits in the trump slot
# and a higher bit beats a lower one of the same slot); a double deck's second copies live in a
# second mask.  Following suit is `hand & SUITMASK[led]`, winning is a bit comparison, and of
# two identical cards the first played wins because only a strictly higher bit takes the trick.
# The layout table is built by bideuchre.rules (effective_suit, rank_order) and handed in once
# through set_layout(): the rules live in one place.
#
# Search: null-window (target-by-target) alpha-beta; transposition tables at trick boundaries
# holding lower and upper bounds, in fixed memory: one of exact positions keyed on relative
# ranks (played cards squeezed out), and a partition table whose bounds hold for every
# position agreeing on suit lengths and the owners of the ranks the proof looked at; touching
# cards in one hand and identical copies searched once; move ordering; a seat may sit out
# (lone hands: tricks of three).

from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

cdef uint32_t SUITMASK[4]

_layout_ready = 0      # LAYOUT, PEXT and _layout_ready are declared in _search.pxd


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A zeroed table; on Linux, one of 2 MiB or more on huge pages where the kernel allows
       (fewer TLB misses on the random probes of a large TT).  Free with free(). */
    static void* bde_table_alloc(size_t bytes) {
        void* p = NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const size_t huge = (size_t)1 << 21;
        if (bytes >= huge) {
            size_t n = (bytes + huge - 1) & ~(huge - 1);
            if (posix_memalign(&p, huge, n) != 0) return NULL;
            madvise(p, n, MADV_HUGEPAGE);
            memset(p, 0, n);
            return p;
        }
    #endif
    #if defined(__unix__) || defined(__APPLE__)
        if (posix_memalign(&p, 64, bytes) != 0) return NULL;
        memset(p, 0, bytes);
    #else
        p = calloc(1, bytes);
    #endif
        return p;
    }
    """
    void* bde_table_alloc(size_t bytes) nogil

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define BDE_BMI2 1
    static inline uint32_t bde_pext(uint32_t m, uint32_t a) { return _pext_u32(m, a); }
    static inline uint32_t bde_pdep(uint32_t m, uint32_t a) { return _pdep_u32(m, a); }
    #else
    #define BDE_BMI2 0
    static inline uint32_t bde_pext(uint32_t m, uint32_t a) { return 0; }
    static inline uint32_t bde_pdep(uint32_t m, uint32_t a) { return 0; }
    #endif
    #if defined(__POPCNT__)
    #define BDE_POPCNT 1
    #else
    #define BDE_POPCNT 0
    #endif
    """
    # Built for a CPU with BMI2 / POPCNT (see setup.py): use the instructions, else tables.
    bint BDE_BMI2
    bint BDE_POPCNT
    uint32_t bde_pext(uint32_t m, uint32_t a) nogil
    uint32_t bde_pdep(uint32_t m, uint32_t a) nogil

cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil
    int __builtin_clz(unsigned int x) nogil
    void __builtin_prefetch(const void* p) nogil


cdef inline uint32_t bytecount(uint32_t x) noexcept nogil:
    """Set bits of each byte of x, in that byte."""
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    return (x + (x >> 4)) & 0x0F0F0F0Fu


cdef inline int popcount(uint32_t x) noexcept nogil:
    if BDE_POPCNT:
        return __builtin_popcount(x)
    # SWAR count: portable, and no call into libgcc where the CPU flag is not enabled
    return <int>((bytecount(x) * 0x01010101u) >> 24)


cdef void _init_tables() noexcept nogil:
    cdef int a, h, b, j
    cdef uint8_t out
    for a in range(256):
        for h in range(256):
            out = 0
            j = 0
            for b in range(8):
                if a & (1 << b):
                    if h & (1 << b):
                        out |= <uint8_t>(1 << j)
                    j += 1
            PEXT[a][h] = out
    for a in range(4):
        SUITMASK[a] = (<uint32_t>0xFF) << (8 * a)


_init_tables()

# CPU instructions this build uses (setup.py: -march=native unless BIDEUCHRE_PORTABLE=1)
FEATURES = {"bmi2": bool(BDE_BMI2), "popcnt": bool(BDE_POPCNT)}


def set_layout(table):
    """Install the card layout: ``table[strain][card] = effective_suit * 8 + rank_order``.

    Called once by bideuchre.search.solve with values from bideuchre.rules.  ``table`` is 6 × 24 ints.
    """
    global _layout_ready
    cdef int s, k, v
    for s in range(6):
        for k in range(24):
            v = int(table[s][k])
            if v < 0 or v > 31:
                raise ValueError(f"layout value {v} out of range for strain {s} card {k}")
            LAYOUT[s][k] = <uint8_t>v
    _layout_ready = 1


cdef int ctx_init(Ctx* c, int tt_bits) noexcept nogil:
    memset(c, 0, sizeof(Ctx))
    c.tt = <Entry*>bde_table_alloc(((<uint64_t>1) << tt_bits) * sizeof(Entry))
    if c.tt == NULL:
        return -1
    c.tt_mask = ((<uint64_t>1) << tt_bits) - 1
    # the partition table: an eighth of the exact table's memory, in 64-byte buckets
    c.gt = <Bucket*>bde_table_alloc(((<uint64_t>1) << (tt_bits - 4)) * sizeof(Bucket))
    if c.gt == NULL:
        free(c.tt)
        c.tt = NULL
        return -1
    c.gt_mask = ((<uint64_t>1) << (tt_bits - 4)) - 1
    c.stamp = 0
    return 0


cdef void ctx_free(Ctx* c) noexcept nogil:
    if c.tt != NULL:
        free(c.tt)
        c.tt = NULL
    if c.gt != NULL:
        free(c.gt)
        c.gt = NULL


cdef inline int top_bit(uint32_t x) noexcept nogil:
    return 31 - __builtin_clz(x) if x else -1


# ---------------------------------------------------------------------------------------------
# Transposition table

cdef void squeeze_key(const uint32_t* m1, const uint32_t* m2, int n, bint double,
                      uint32_t* key) noexcept nogil:
    """Relative-rank key of n hands (m1 then, for a double deck, m2 of each): each suit
    squeezed onto the cards still in play, so positions that differ only in which cards are
    gone share a key.  key[0:n] from m1, key[n:2n] from m2 (zero when not double)."""
    cdef uint32_t allm = 0, a, low = 0, nd
    cdef int s, i, sh
    for i in range(n):
        allm |= m1[i]
    if BDE_BMI2:
        # squeeze all suits at once, then spread back to one byte per suit
        nd = bytecount(allm)
        for s in range(4):
            low |= ((<uint32_t>1 << ((nd >> (8 * s)) & 0xFF)) - 1) << (8 * s)
        for i in range(n):
            key[i] = bde_pdep(bde_pext(m1[i], allm), low)
            key[n + i] = bde_pdep(bde_pext(m2[i], allm), low) if double else 0
        return
    for i in range(2 * n):
        key[i] = 0
    for s in range(4):
        sh = 8 * s
        a = (allm >> sh) & 0xFF
        if a == 0:
            continue
        for i in range(n):
            key[i] |= (<uint32_t>PEXT[a][(m1[i] >> sh) & 0xFF]) << sh
        if double:
            for i in range(n):
                key[n + i] |= (<uint32_t>PEXT[a][(m2[i] >> sh) & 0xFF]) << sh


cdef inline uint32_t pack_out(uint32_t m, uint32_t allm, const uint32_t* a,
                              const int* off) noexcept nogil:
    """The cards of m among the cards out, squeezed and packed: bit j = the j-th card out
    (all suits in a row, low to high)."""
    if BDE_BMI2:
        return bde_pext(m, allm)
    return ((<uint32_t>PEXT[a[0]][m & 0xFF]) | (<uint32_t>PEXT[a[1]][(m >> 8) & 0xFF] << off[1])
            | (<uint32_t>PEXT[a[2]][(m >> 16) & 0xFF] << off[2])
            | (<uint32_t>PEXT[a[3]][(m >> 24) & 0xFF] << off[3]))


cdef inline void make_key(Ctx* c, uint64_t* key) noexcept nogil:
    """The TT key of the position at a trick boundary, exact, on relative ranks (cards gone
    squeezed out): each hand's cards packed over the cards out (24 bits), the cards some hand
    holds twice (24 bits; such a card is in that hand's mask only), the cards out per suit
    (4 bits each: they place the suits in the packing), the leader and c.stamp."""
    cdef uint32_t allm = c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]
    cdef uint32_t nd = bytecount(allm), dbl = c.m2[0] | c.m2[1] | c.m2[2] | c.m2[3]
    cdef uint32_t a[4]
    cdef int off[4]
    cdef uint64_t k0, k1, k2
    cdef int s
    if not BDE_BMI2:
        for s in range(4):
            a[s] = (allm >> (8 * s)) & 0xFF
        off[0] = 0
        off[1] = nd & 0xF
        off[2] = off[1] + ((nd >> 8) & 0xF)
        off[3] = off[2] + ((nd >> 16) & 0xF)
    k0 = (<uint64_t>pack_out(c.m1[0], allm, a, off) | (<uint64_t>pack_out(c.m1[1], allm, a, off) << 24)
          | (<uint64_t>c.to_move << 48))
    k1 = (<uint64_t>pack_out(c.m1[2], allm, a, off) | (<uint64_t>pack_out(c.m1[3], allm, a, off) << 24)
          | (<uint64_t>(c.stamp & 0xFF) << 48))
    k2 = ((<uint64_t>(pack_out(dbl, allm, a, off) if dbl else 0))
          | (<uint64_t>((nd & 0xF) | ((nd >> 4) & 0xF0) | ((nd >> 8) & 0xF00) | ((nd >> 12) & 0xF000)) << 24)
          | (<uint64_t>(c.stamp >> 8) << 40))
    key[0] = k0
    key[1] = k1
    key[2] = k2


cdef inline uint64_t hash_key3(const uint64_t* key) noexcept nogil:
    cdef uint64_t h = (key[0] * 0x9E3779B97F4A7C15ULL) ^ (key[1] * 0xBF58476D1CE4E5B9ULL) \
        ^ (key[2] * 0x94D049BB133111EBULL)
    h ^= h >> 32
    h *= 0xD6E8FEB86659FD93ULL
    h ^= h >> 29
    return h


cdef inline bint tt_match(Entry* e, const uint64_t* key) noexcept nogil:
    return e.key[0] == key[0] and e.key[1] == key[1] and e.key[2] == key[2]


cdef inline Entry* tt_find(Ctx* c, const uint64_t* key, uint64_t h) noexcept nogil:
    """The entry of this position, or NULL.  Buckets of two: h's slot and its neighbour."""
    cdef uint64_t i = h & c.tt_mask
    if tt_match(&c.tt[i], key):
        return &c.tt[i]
    if tt_match(&c.tt[i ^ 1], key):
        return &c.tt[i ^ 1]
    return NULL


cdef inline uint16_t rel_nibbles(uint32_t t) noexcept nogil:
    """Relevant ranks in the top-aligned layout -> per suit how many (4 bits each)."""
    cdef uint32_t n = bytecount(t)
    return <uint16_t>((n & 0xF) | ((n >> 4) & 0xF0) | ((n >> 8) & 0xF00) | ((n >> 12) & 0xF000))


cdef inline uint32_t nibbles_rel(uint32_t n) noexcept nogil:
    """Inverse of rel_nibbles."""
    cdef uint32_t t = 0
    cdef int s
    for s in range(4):
        t |= ((<uint32_t>0xFF00 >> ((n >> (4 * s)) & 0xF)) & 0xFF) << (8 * s)
    return t


cdef inline void tt_store_exact(Ctx* c, const uint64_t* key, uint64_t h, int left,
                                int value, bint lower, int best, uint16_t rel) noexcept nogil:
    """Record a search result as a bound of this very position, with the relevant ranks of
    the search that proved it (reported on a hit).  A new entry takes the bucket's slot that
    is empty or of another configuration or, failing that, the one with fewer tricks left."""
    cdef uint64_t i = h & c.tt_mask
    cdef Entry* e = &c.tt[i]
    cdef Entry* o = &c.tt[i ^ 1]
    if not tt_match(e, key):
        if tt_match(o, key):
            e = o
        else:
            if e.depth != 0 and (e.key[1] >> 48) == (c.stamp & 0xFF) and (
                    o.depth == 0 or (o.key[1] >> 48) != (c.stamp & 0xFF) or o.depth < e.depth):
                e = o
            e.key[0] = key[0]
            e.key[1] = key[1]
            e.key[2] = key[2]
            e.depth = <uint8_t>left
            e.lb = 0
            e.ub = <int8_t>left
            e.best = 255
            e.rel_lb = 0
            e.rel_ub = 0
    if best != 255:
        e.best = <uint8_t>best
    if lower:
        if value > e.lb:
            e.lb = <int8_t>value
            e.rel_lb = rel
    else:
        if value < e.ub:
            e.ub = <int8_t>value
            e.rel_ub = rel


# The table is a partition search (Ginsberg 1996; DDS's "winning ranks"): a stored bound
# holds not for one position but for every position that agrees with it on what the search
# that proved it looked at.  A bucket holds the positions of one pattern of suit lengths (per
# seat, copies counted) with one leader; a slot in it stores a bound with, per suit, how many
# of the top ranks still out were relevant (d_s) and who holds each of them (each seat's copy,
# and whether one seat holds both).  A position matches a slot when its lengths and leader are
# the bucket's and the owners of its top d_s ranks of each suit are the slot's: the cards
# below are "small", and the proof plays the same with any small cards of the same lengths.
# See search() for how the relevant ranks are found and why the bound carries over.

cdef inline uint64_t tt_key(Ctx* c, int left) noexcept nogil:
    """The bucket key: each seat's suit lengths (copies counted; 4 bits each, suit 3 follows
    from the tricks left), the tricks left, the leader, strain and seat out.  Never zero."""
    cdef uint64_t k = 0
    cdef uint32_t n
    cdef int q
    for q in range(4):
        n = bytecount(c.m1[q]) + bytecount(c.m2[q])
        k |= (<uint64_t>((n & 0xF) | ((n >> 4) & 0xF0) | ((n >> 8) & 0xF00))) << (12 * q)
    return (k | (<uint64_t>left << 48) | (<uint64_t>c.to_move << 52)
            | (<uint64_t>(c.stamp & 0x7F) << 54))


cdef inline uint64_t hash_key(uint64_t k) noexcept nogil:
    k ^= k >> 31
    k *= 0x9E3779B97F4A7C15ULL
    k ^= k >> 29
    k *= 0xBF58476D1CE4E5B9ULL
    k ^= k >> 32
    return k


cdef inline uint32_t top_layout(uint32_t allm) noexcept nogil:
    """The top-aligned layout of the cards out: in each suit's byte, as many top bits as
    the suit has ranks still out."""
    cdef uint32_t nd = bytecount(allm), t = 0
    cdef int s
    for s in range(4):
        t |= ((<uint32_t>0xFF00 >> ((nd >> (8 * s)) & 0xFF)) & 0xFF) << (8 * s)
    return t


cdef inline uint32_t to_top(uint32_t m, uint32_t allm, uint32_t top) noexcept nogil:
    """Cards m (among the cards out, allm) in the top-aligned layout `top`: the j-th highest
    rank out of suit s at bit 8*s+7-j."""
    cdef uint32_t r = 0, a
    cdef int s
    if BDE_BMI2:
        return bde_pdep(bde_pext(m, allm), top)
    for s in range(4):
        a = (allm >> (8 * s)) & 0xFF
        if a:
            r |= ((<uint32_t>PEXT[a][(m >> (8 * s)) & 0xFF] << (8 - popcount(a))) & 0xFF) << (8 * s)
    return r


cdef inline uint32_t from_top(uint32_t t, uint32_t allm, uint32_t top) noexcept nogil:
    """Inverse of to_top: the cards out at the top-aligned positions t."""
    cdef uint32_t r = 0, a, want
    cdef int s, b, j
    if BDE_BMI2:
        return bde_pdep(bde_pext(t, top), allm)
    for s in range(4):
        a = (allm >> (8 * s)) & 0xFF
        want = (t >> (8 * s)) & 0xFF
        j = 7
        for b in range(7, -1, -1):
            if a & ((<uint32_t>1) << b):
                if want & ((<uint32_t>1) << j):
                    r |= (<uint32_t>1) << (8 * s + b)
                j -= 1
    return r


cdef inline void tt_owners(Ctx* c, uint32_t allm, uint32_t top, uint32_t* own) noexcept nogil:
    """The position's owner planes in the top-aligned layout (see Slot.own)."""
    cdef int q
    cdef uint32_t dbl = c.m2[0] | c.m2[1] | c.m2[2] | c.m2[3]
    for q in range(4):
        own[q] = to_top(c.m1[q], allm, top) if c.m1[q] else 0
    own[4] = to_top(dbl, allm, top) if dbl else 0


cdef inline bint slot_match(const Slot* e, const uint32_t* own) noexcept nogil:
    cdef uint32_t r = e.rel
    return (((own[0] & r) ^ e.own[0]) | ((own[1] & r) ^ e.own[1]) | ((own[2] & r) ^ e.own[2])
            | ((own[3] & r) ^ e.own[3]) | ((own[4] & r) ^ e.own[4])) == 0


cdef inline void gt_store(Ctx* c, Bucket* b, uint64_t key, const uint32_t* own, uint32_t rel,
                          int left, int value, bint lower, int best) noexcept nogil:
    """Record a bound for the positions agreeing with `own` on the relevant ranks `rel`
    (top-aligned).  The same set already stored gets the bound added; otherwise a free slot,
    else the slot of the narrowest set (it serves the fewest positions).  A bucket of another
    length pattern is taken over."""
    cdef int i, k = -1, w = -1, pc
    cdef Slot* e
    cdef uint32_t o[5]
    for i in range(5):
        o[i] = own[i] & rel
    if b.key != key:
        b.key = key
        for i in range(NSLOT):
            b.slot[i].used = 0
    for i in range(NSLOT):
        e = &b.slot[i]
        if not e.used:
            if k < 0:
                k = i
                w = 99
            continue
        if e.rel == rel and e.own[0] == o[0] and e.own[1] == o[1] and e.own[2] == o[2] \
                and e.own[3] == o[3] and e.own[4] == o[4]:
            k = i
            break
        pc = popcount(e.rel)
        if pc >= w:
            k = i
            w = pc
    e = &b.slot[k]
    if not e.used or e.rel != rel or e.own[0] != o[0] or e.own[1] != o[1] or e.own[2] != o[2] \
            or e.own[3] != o[3] or e.own[4] != o[4]:
        for i in range(5):
            e.own[i] = o[i]
        e.rel = rel
        e.lb = 0
        e.ub = <int8_t>left
        e.best = 255
        e.used = 1
    if best != 255:
        e.best = <uint8_t>best
    if lower:
        if value > e.lb:
            e.lb = <int8_t>value
    else:
        if value < e.ub:
            e.ub = <int8_t>value


cdef inline uint32_t close_rel(uint32_t rel, uint32_t span, uint32_t allm) noexcept nogil:
    """The relevant cards out from the marks `rel`: in each suit, every card out at or above
    the lowest mark, extended down across the move classes `span` (see search)."""
    cdef uint32_t out = 0, r, sp, holes
    cdef int s, l
    for s in range(4):
        r = (rel >> (8 * s)) & 0xFF
        if r == 0:
            continue
        l = 0
        while not (r & ((<uint32_t>1) << l)):
            l += 1
        sp = (span >> (8 * s)) & 0xFF
        if l > 0 and (sp >> (l - 1)) & 1:
            holes = ~sp & (((<uint32_t>1) << l) - 1)
            l = top_bit(holes) + 1 if holes else 0
        out |= (((<uint32_t>0xFF << l) & 0xFF) << (8 * s)) & allm
    return out


cdef inline uint32_t bounds_rel(Ctx* c, bint leader_side) noexcept nogil:
    """The ranks a sure-trick bound (quick_tricks, trump_bounds) compared, as marks (see
    search): the trump suit down to the top trump of the side without the highest trump (with
    one side alone holding trumps, down to the lower of its two seats' top trumps: partner's
    trumps above the leader's); for the leader side's bound, also each side suit in which the
    leader holds a card at or above every other seat's, down to the others' top card (the
    leader's sure winners).  A side suit without such a card adds nothing to quick_tricks,
    whatever its small cards.  The counts of these bounds depend otherwise on suit lengths
    (in the key) only.  A bound that compares other ranks must add them here."""
    cdef uint32_t ns, ew, sm, r = 0, others
    cdef int s, a, b, p = c.to_move
    if c.trump >= 0:
        sm = SUITMASK[c.trump]
        ns = (c.m1[0] | c.m1[2]) & sm
        ew = (c.m1[1] | c.m1[3]) & sm
        if ns and ew:
            a = top_bit(ns)
            b = top_bit(ew)
        elif ns:
            a = top_bit(c.m1[0] & sm)
            b = top_bit(c.m1[2] & sm)
        else:
            a = top_bit(c.m1[1] & sm)
            b = top_bit(c.m1[3] & sm)
        if a >= 0 and b >= 0:
            r = (<uint32_t>1) << (a if a < b else b)
    if leader_side:
        others = c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]
        for s in range(4):
            if s == c.trump:
                continue
            sm = SUITMASK[s]
            b = top_bit(others & sm)
            if b >= 0 and top_bit(c.m1[p] & sm) >= b:
                r |= (<uint32_t>1) << b
    return r


# ---------------------------------------------------------------------------------------------
# Moves

cdef inline int gen_moves(Ctx* c, int p, int* moves) noexcept nogil:
    """Distinct legal cards of seat p, one per group of equivalent cards, ordered best-first."""
    cdef uint32_t h = c.m1[p]
    cdef uint32_t f, present, hs, pres, tmk
    cdef int n = 0, s, b, prev, i, j, k, q, partner_winning, ws, top_opp = -1, top_part = -1, ruff = 0
    cdef uint32_t opp, lf
    cdef int later
    cdef int scores[16]
    cdef int sc, mv, pruff = 0
    cdef bint opp_t = 0
    if c.ntrick > 0:
        f = h & SUITMASK[c.led_suit]
        if f:
            h = f
    present = 0
    for i in range(4):
        if i != p:
            present |= c.m1[i]
    partner_winning = c.ntrick > 0 and (c.win_seat & 1) == (p & 1)
    opp_t = c.ntrick == 0 and c.trump >= 0 and (
        (c.m1[(p + 1) & 3] | c.m1[(p + 3) & 3]) & SUITMASK[c.trump]) != 0
    later = -1          # an opponent still to play to this trick after p
    if c.ntrick > 0 and c.ntrick < c.trick_size - 1 and (c.nxt[p] & 1) != (p & 1):
        later = c.nxt[p]
    if partner_winning and c.ntrick == c.trick_size - 2:
        # third hand: partner is winning, but can the last player beat partner's card?
        f = c.m1[c.nxt[p]]
        ws = c.win_bit >> 3
        if f & SUITMASK[c.led_suit]:
            if ws == c.led_suit and top_bit(f & SUITMASK[c.led_suit]) > c.win_bit:
                partner_winning = 0
        elif c.trump >= 0 and (f & SUITMASK[c.trump]):
            if ws != c.trump or top_bit(f & SUITMASK[c.trump]) > c.win_bit:
                partner_winning = 0
    for s in range(4):
        hs = (h >> (8 * s)) & 0xFF
        if hs == 0:
            continue
        pres = (present >> (8 * s)) & 0xFF
        tmk = (c.trick_mask >> (8 * s)) & 0xFF
        if c.ntrick == 0:
            # lead: who holds the best card out among the others, and can an opponent ruff?
            opp = (c.m1[(p + 1) & 3] | c.m1[(p + 3) & 3]) >> (8 * s) & 0xFF
            top_opp = top_bit(opp)
            top_part = top_bit((c.m1[(p + 2) & 3] >> (8 * s)) & 0xFF)
            # who can ruff a lead of this side suit: an opponent, partner
            ruff = 0
            pruff = 0
            if c.trump >= 0 and s != c.trump:
                for i in range(1, 4):
                    q = (p + i) & 3
                    if (c.m1[q] & SUITMASK[s]) == 0 and (c.m1[q] & SUITMASK[c.trump]) != 0:
                        if i == 2:
                            pruff = 1
                        else:
                            ruff = 1
        prev = -1
        while hs:
            b = 31 - __builtin_clz(hs)
            hs ^= (<uint32_t>1) << b
            # equivalent to the card above it in this hand when no other hand holds a card
            # between them and no card of this trick lies between them -- or the one above
            # loses this trick too (a card of the trick is gone after it)
            if prev >= 0 and (pres >> b) & ((<uint32_t>1) << (prev - b + 1)) - 1 == 0:
                if (tmk >> b) & ((<uint32_t>1) << (prev - b + 1)) - 1 == 0 or not (
                        (s == (c.win_bit >> 3) and 8 * s + prev > c.win_bit)
                        or (s == c.trump and (c.win_bit >> 3) != c.trump)):
                    prev = b
                    continue
            prev = b
            mv = 8 * s + b
            # ordering score, best first
            if c.ntrick == 0:
                # The lead.  Measured on double48 tables (node counts, same results): cashing
                # side-suit winners (first from the suit with the most small cards behind the
                # fewest other winners), then leading toward partner's winner or partner's
                # ruff, and drawing trumps only after those, gives proofs a third smaller than
                # drawing trumps first; a trump winner when the opponents hold no trumps comes
                # after every low lead no opponent can ruff (it wastes a trick's tempo).
                if b >= top_opp:              # beats every opponent's card of the suit
                    if s == c.trump:
                        sc = 120 if opp_t else 90
                    else:
                        # hs: our lower cards of the suit; among them, winners too
                        k = popcount(hs)
                        sc = 200 + k - 4 * (popcount(hs >> top_opp) if top_opp >= 0 else k)
                elif top_part > top_opp:      # low toward partner's winner
                    sc = 150 - b
                elif pruff and not ruff:      # low for partner to ruff
                    sc = 120 - b
                else:
                    sc = 100 - b
                if ruff:                      # an opponent ruffs it: last
                    sc -= 120
            elif partner_winning:
                sc = 50 - b if (s == c.trump and s != c.led_suit) else 100 - b
            else:
                ws = c.win_bit >> 3
                if (s == ws and mv > c.win_bit) or (s == c.trump and ws != c.trump):
                    sc = 180 - b if (s == c.trump and s != c.led_suit) else 200 - b
                    if later >= 0:
                        # can the opponent still to play beat this card?
                        lf = c.m1[later] & SUITMASK[c.led_suit]
                        if lf:
                            if s == c.led_suit and top_bit(lf) > mv:
                                sc = 110 - b
                        elif c.trump >= 0 and (c.m1[later] & SUITMASK[c.trump]):
                            if s != c.trump or top_bit(c.m1[later] & SUITMASK[c.trump]) > mv:
                                sc = 110 - b
                else:
                    sc = 50 - b if s == c.trump else 100 - b
            j = n
            while j > 0 and scores[j - 1] < sc:
                scores[j] = scores[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            scores[j] = sc
            moves[j] = mv
            n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Search

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


cdef int quick_tricks(Ctx* c) noexcept nogil:
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
    the leader's (at most one trick each)."""
    cdef int p = c.to_move, s, k, lim, o, len_o, t_top = 0, opp_t = 0, part_t = 0, mo
    cdef int tl[4]
    cdef uint32_t sm, top, tm
    cdef int total = 0
    cdef bint no_ruff = c.trump < 0
    cdef uint32_t others = c.m1[(p + 1) & 3] | c.m1[(p + 2) & 3] | c.m1[(p + 3) & 3]
    if c.trump >= 0:
        tm = SUITMASK[c.trump]
        top = sure_top(c.m1[p] & tm, others & tm)
        t_top = suit_len(c, p, top)
        for o in range(1, 4):
            tl[o] = suit_len(c, (p + o) & 3, tm)
        opp_t = tl[1] if tl[1] > tl[3] else tl[3]
        part_t = tl[2]
        total = t_top
        if t_top >= opp_t and t_top >= part_t:
            # every other hand's trumps fall under the sure ones: all the leader's trumps win
            # and no side-suit card of the leader's can be ruffed afterwards
            no_ruff = 1
            if t_top:
                total = suit_len(c, p, tm)
    for s in range(4):
        if s == c.trump:
            continue
        sm = SUITMASK[s]
        if (c.m1[p] & sm) == 0:
            continue
        top = sure_top(c.m1[p] & sm, others & sm)
        k = suit_len(c, p, top)
        if k == 0:
            continue
        if no_ruff:
            # length winners: the others run out of the suit under the k sure cards
            mo = suit_len(c, (p + 1) & 3, sm)
            len_o = suit_len(c, (p + 2) & 3, sm)
            if len_o > mo:
                mo = len_o
            len_o = suit_len(c, (p + 3) & 3, sm)
            if len_o > mo:
                mo = len_o
            if k >= mo:
                k = suit_len(c, p, sm)
        else:
            # the hands that can still ruff once the leader's sure trumps are cashed: those
            # holding more trumps than that (each followed to every trump round)
            lim = k
            for o in range(1, 4):
                if tl[o] > t_top:
                    len_o = suit_len(c, (p + o) & 3, sm)
                    if len_o < lim:
                        lim = len_o
            k = lim
        total += k
    return total


cdef inline int trumps_above(Ctx* c, int q, uint32_t tm, int t) noexcept nogil:
    """Seat q's trumps (mask tm; copies counted) strictly above effective bit t (all if t < 0)."""
    cdef uint32_t mine = c.m1[q] & tm
    if t >= 0:
        mine &= ~((((<uint32_t>1) << t) << 1) - 1)
    return suit_len(c, q, mine)


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
      sequence."""
    cdef int moves[16]
    cdef int sure[2]
    cdef int n, i, e, p, won, qt, tops, hint = -1, cut = 255, v, best, k
    cdef uint32_t bit, allm = 0, top = 0, acc = 0, mark, saved_span = 0, others, below, run, o
    cdef uint32_t own[5]
    cdef uint64_t h = 0, key = 0, xh = 0
    cdef uint64_t xkey[3]
    cdef Bucket* bk = NULL
    cdef Slot* ent
    cdef Entry* xent
    cdef bint ns, boundary
    cdef int s_ntrick, s_led, s_ws, s_wb, s_tm, su, ws
    cdef uint32_t s_tmask
    cdef bint from_m2
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
    boundary = c.ntrick == 0
    if boundary:
        if left == 1:
            ws = last_trick(c)
            e = top_bit(c.m1[ws])
            others = c.m1[(ws + 1) & 3] | c.m1[(ws + 2) & 3] | c.m1[(ws + 3) & 3]
            c.rel = ((<uint32_t>1) << e) if others & SUITMASK[e >> 3] else 0
            return 1 if (ws & 1) == 0 else 0
        make_key(c, xkey)
        xh = hash_key3(xkey)
        __builtin_prefetch(&c.tt[xh & c.tt_mask])     # its bucket loads while we bound
        key = tt_key(c, left)
        h = hash_key(key)
        bk = &c.gt[h & c.gt_mask]
        __builtin_prefetch(bk)
        # partner's top trumps come on top of the leader's cashing; each side's sure trumps
        qt = quick_tricks(c) + trump_bounds(c, sure)
        if sure[c.to_move & 1] > qt:
            qt = sure[c.to_move & 1]
        tops = sure[(c.to_move & 1) ^ 1]
        # bounds on NS tricks: the leader's side takes at least qt, the other side at least tops
        if (c.to_move & 1) == 0:
            if qt >= need:
                c.rel = bounds_rel(c, 1)
                return qt
            if left - tops < need:
                c.rel = bounds_rel(c, 0)
                return left - tops
        else:
            if left - qt < need:
                c.rel = bounds_rel(c, 1)
                return left - qt
            if tops >= need:
                c.rel = bounds_rel(c, 0)
                return tops
        allm = c.m1[0] | c.m1[1] | c.m1[2] | c.m1[3]
        top = top_layout(allm)
        xent = tt_find(c, xkey, xh)
        if xent != NULL:
            if xent.lb >= need:
                c.rel = from_top(nibbles_rel(xent.rel_lb), allm, top)
                return xent.lb
            if xent.ub < need:
                c.rel = from_top(nibbles_rel(xent.rel_ub), allm, top)
                return xent.ub
            if xent.best != 255:
                hint = abs_move(c, xent.best)
        tt_owners(c, allm, top, own)
        if bk.key == key:
            for k in range(NSLOT):
                ent = &bk.slot[k]
                if ent.used and slot_match(ent, own):
                    if ent.lb >= need:
                        c.rel = from_top(ent.rel, allm, top)
                        return ent.lb
                    if ent.ub < need:
                        c.rel = from_top(ent.rel, allm, top)
                        return ent.ub
                    if hint < 0 and ent.best != 255:
                        hint = abs_move(c, ent.best)
        saved_span = c.span
        c.span = 0
    p = c.to_move
    ns = (p & 1) == 0
    best = -1 if ns else 99
    n = gen_moves(c, p, moves)
    if hint >= 0:
        for i in range(1, n):
            if moves[i] == hint:
                while i > 0:
                    moves[i] = moves[i - 1]
                    i -= 1
                moves[0] = hint
                break
    s_ntrick = c.ntrick
    s_led = c.led_suit
    s_ws = c.win_seat
    s_wb = c.win_bit
    s_tm = c.to_move
    s_tmask = c.trick_mask
    for i in range(n):
        e = moves[i]
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
            v = search(c, need, left)
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
                if boundary:
                    cut = rel_move(c, e)
                break
        else:
            if v < best:
                best = v
            if v < need:
                acc = mark
                if boundary:
                    cut = rel_move(c, e)
                break
        acc |= mark
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
    if boundary:
        acc = close_rel(acc, c.span, allm)
        c.span = saved_span
        o = to_top(acc, allm, top)
        tt_store_exact(c, xkey, xh, left, best, best >= need, cut, rel_nibbles(o))
        if o != top:        # it holds for other positions too
            gt_store(c, bk, key, own, o, left, best, best >= need, cut)
    c.rel = acc
    return best


# ---------------------------------------------------------------------------------------------
# Roots

cdef int setup(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
               const int* trick, int ntrick) noexcept nogil:
    """Load a position; returns the tricks left (the current trick counts as one)."""
    cdef int p, k, e, su, q
    cdef uint32_t bit
    for p in range(4):
        c.m1[p] = 0
        c.m2[p] = 0
        if p == out:
            continue
        for k in range(24):
            bit = (<uint32_t>1) << LAYOUT[strain][k]
            if counts[p * 24 + k] >= 1:
                c.m1[p] |= bit
            if counts[p * 24 + k] >= 2:
                c.m2[p] |= bit
    c.trump = strain if strain < 4 else -1
    for p in range(4):
        q = (p + 1) & 3
        if q == out:
            q = (q + 1) & 3
        c.nxt[p] = q
    c.trick_size = 4 if out < 0 else 3
    c.ntrick = 0
    c.trick_mask = 0
    c.to_move = leader
    p = leader
    for k in range(ntrick):
        add_to_trick(c, p, LAYOUT[strain][trick[k]])
        p = c.nxt[p]
    c.to_move = p
    # the configuration (strain, seat out) is part of every TT key
    c.stamp = (<uint32_t>(strain + 1)) | ((<uint32_t>(out + 1)) << 4)
    return suit_len(c, p, 0xFFFFFFFFu)


cdef int solve_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                    const int* trick, int ntrick, int guess) noexcept nogil:
    """Exact NS tricks from the position (the current trick included), by MTD(f): null-window
    searches around a guess, each fail-soft result moving one bound."""
    return window_root(c, counts, strain, leader, out, trick, ntrick, guess, 0, 99)


cdef int window_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                     const int* trick, int ntrick, int guess, int lo, int hi) noexcept nogil:
    """NS tricks from the position clamped to [lo, hi] (lo <= hi): the exact count when it
    lies in the window, else lo (NS take at most lo) or hi (NS take at least hi).  MTD(f) as in
    solve_root, started from lb = lo, ub = hi: every null-window search at beta in (lb, ub]
    tells whether the count reaches beta, so lb <= clamp(count) <= ub holds throughout and the
    loop ends on the clamped count.  can_take at t is the window [t - 1, t]."""
    cdef int left = setup(c, counts, strain, leader, out, trick, ntrick)
    cdef int lb = lo if lo > 0 else 0, ub = hi if hi < left else left, g, beta, v
    if lb > ub:                     # the window lies wholly above or below [0, left]
        return lo if lo > left else hi
    g = (left + 1) // 2 if guess < 0 else guess
    while lb < ub:
        beta = g + 1 if g == lb else g
        if beta <= lb:
            beta = lb + 1
        if beta > ub:
            beta = ub
        v = search(c, beta, left)
        if v >= beta:
            lb = v if v < ub else ub
        else:
            ub = v if v > lb else lb
        g = v
    return lb


cdef int can_take_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                       const int* trick, int ntrick, int target) noexcept nogil:
    cdef int left = setup(c, counts, strain, leader, out, trick, ntrick)
    return 1 if search(c, target, left) >= target else 0


cdef int move_value(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                    const int* trick, int ntrick, int card, int rest) noexcept nogil:
    """NS tricks of the rest (the current trick included) after the player to move plays
    `card` (a card id), given `rest`, the exact NS tricks of the rest before it: `rest` when
    the card keeps the value, else the exact lower (NS mover) or higher (EW mover) count,
    stepping the null window from each fail-soft bound.  -1 if the mover does not hold it."""
    cdef int left = setup(c, counts, strain, leader, out, trick, ntrick)
    cdef int p = c.to_move, e = LAYOUT[strain][card], won = 0, v, t
    cdef uint32_t bit = (<uint32_t>1) << e
    if c.m2[p] & bit:
        c.m2[p] ^= bit
    elif c.m1[p] & bit:
        c.m1[p] ^= bit
    else:
        return -1
    add_to_trick(c, p, e)
    if c.ntrick == c.trick_size:
        won = 1 if (c.win_seat & 1) == 0 else 0
        c.to_move = c.win_seat
        c.ntrick = 0
        c.trick_mask = 0
        left -= 1
    else:
        c.to_move = c.nxt[p]
    if (p & 1) == 0:
        # an NS card: worth rest, or less; v is an upper bound after each failed search
        v = search(c, rest - won, left)
        if v >= rest - won:
            return rest
        t = v
        while t > 0:
            v = search(c, t, left)
            if v >= t:
                break
            t = v
        return won + t
    # an EW card: worth rest, or more; v is a lower bound after each passed search
    v = search(c, rest - won + 1, left)
    if v < rest - won + 1:
        return rest
    t = v
    while t < left:
        v = search(c, t + 1, left)
        if v < t + 1:
            break
        t = v
    return won + t


# ---------------------------------------------------------------------------------------------
# Python face (thin; the public API is bideuchre.search.solve)

cdef class Solver:
    """A search context with its own transposition tables: ``2**tt_bits`` exact entries of 32
    bytes, and a partition table of an eighth of that memory.

    Not thread-safe: one Solver per thread.  Counts are per seat, per card id (4 × 24, uint8).
    """

    cdef Ctx c

    def __cinit__(self, int tt_bits=16):
        if tt_bits < 4 or tt_bits > 28:
            raise ValueError(f"tt_bits must be 4..28, got {tt_bits}")
        if ctx_init(&self.c, tt_bits) != 0:
            raise MemoryError("cannot allocate the transposition table")

    def __dealloc__(self):
        ctx_free(&self.c)

    @property
    def nodes(self):
        """Nodes searched since the last reset_nodes()."""
        return self.c.nodes

    def reset_nodes(self):
        self.c.nodes = 0

    def clear(self):
        """Forget every stored bound (entries are also kept apart by strain and seat out)."""
        memset(self.c.tt, 0, (self.c.tt_mask + 1) * sizeof(Entry))
        memset(self.c.gt, 0, (self.c.gt_mask + 1) * sizeof(Bucket))

    def solve(self, const uint8_t[:, ::1] counts, int strain, int leader, int out=-1,
              trick=(), int guess=-1):
        """NS tricks from the position: ``counts`` 4 × 24 remaining cards, ``leader`` the seat
        that led the current trick (or leads next), ``trick`` the card ids played to it."""
        cdef int tr[4]
        cdef int nt = _load_trick(trick, tr)
        _check(counts, strain, leader, out)
        cdef int r
        with nogil:
            r = solve_root(&self.c, &counts[0, 0], strain, leader, out, tr, nt, guess)
        return r

    def can_take(self, const uint8_t[:, ::1] counts, int strain, int leader, int out=-1,
                 trick=(), int target=0):
        """Whether NS can take at least ``target`` of the remaining tricks."""
        cdef int tr[4]
        cdef int nt = _load_trick(trick, tr)
        _check(counts, strain, leader, out)
        cdef int r
        with nogil:
            r = can_take_root(&self.c, &counts[0, 0], strain, leader, out, tr, nt, target)
        return bool(r)

    def values(self, const uint8_t[:, ::1] counts, int strain, int leader, int out, trick,
               cards, int rest, bint last_keeps=False):
        """For each card id of ``cards`` (the player to move's), the NS tricks of the rest
        (the current trick included) after it, given ``rest``, the exact value before it (see
        move_value).  With ``last_keeps``, the last card is taken to keep the value when no
        earlier one does (some card must).  Raises ValueError for a card the mover lacks."""
        cdef int tr[4]
        cdef int nt = _load_trick(trick, tr)
        _check(counts, strain, leader, out)
        cdef int n = len(cards), k, card, r, p = leader
        cdef bint kept = 0
        for k in range(nt):             # the player to move: after the trick's cards so far
            p = (p + 1) & 3
            if p == out:
                p = (p + 1) & 3
        ids = [int(x) for x in cards]
        for card in ids:
            if card < 0 or card > 23:
                raise ValueError("card id out of range")
            if counts[p, card] == 0:
                raise ValueError(f"card id {card} is not held by the player to move")
        res = [0] * n
        for k in range(n):
            card = ids[k]
            if last_keeps and k == n - 1 and not kept:
                res[k] = rest
                break
            with nogil:                 # every card is the mover's (checked above): r >= 0
                r = move_value(&self.c, &counts[0, 0], strain, leader, out, tr, nt, card, rest)
            kept = kept or r == rest
            res[k] = r
        return res

    def tables(self, const uint8_t[:, :, ::1] counts, const int[::1] strains,
               const int[:, ::1] leaders, int out, int[:, :, ::1] result):
        """For each deal i, strain j and leader slot k: NS tricks with ``leaders[i, k]`` on lead
        (skipped where the leader is -1) into ``result[i, k, j]``.  Releases the GIL."""
        if not _layout_ready:
            raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
        with nogil:
            _tables(&self.c, counts, strains, leaders, out, result, NULL, NULL)

    def window_tables(self, const uint8_t[:, :, ::1] counts, const int[::1] strains,
                      const int[:, ::1] leaders, int out, const int[:, :, ::1] lo,
                      const int[:, :, ::1] hi, int[:, :, ::1] result):
        """As tables(), but each cell's NS tricks clamped to ``[lo, hi]`` at its index
        ``(i, k, j)`` (see window_root): the exact count when it lies in the window, ``lo``
        when NS take at most lo, ``hi`` when they take at least hi; -1 where ``lo > hi`` (no
        question asked) or the leader is -1 (cell left as it was).  Cheaper than the exact
        count when the window is narrow (a window [t - 1, t] is one yes/no question: "can NS
        take t?").  Releases the GIL."""
        if not _layout_ready:
            raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
        _check_window(counts, strains, leaders, lo, hi, result)
        with nogil:
            _tables(&self.c, counts, strains, leaders, out, result, &lo[0, 0, 0], &hi[0, 0, 0])


cdef inline void _check(const uint8_t[:, ::1] counts, int strain, int leader, int out) except *:
    if not _layout_ready:
        raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
    if counts.shape[0] != 4 or counts.shape[1] != 24:
        raise ValueError("counts must be 4 x 24")
    if strain < 0 or strain > 5 or leader < 0 or leader > 3 or out < -1 or out > 3 or leader == out:
        raise ValueError("strain, leader or seat out of range")


cdef int _load_trick(trick, int* tr) except -1:
    cdef int n = len(trick), k
    if n > 3:
        raise ValueError("a trick in progress holds at most 3 cards")
    for k in range(n):
        tr[k] = int(trick[k])
        if tr[k] < 0 or tr[k] > 23:
            raise ValueError("card id out of range")
    return n


cdef void _tables(Ctx* c, const uint8_t[:, :, ::1] counts, const int[::1] strains,
                  const int[:, ::1] leaders, int out, int[:, :, ::1] result,
                  const int* lo, const int* hi) noexcept nogil:
    """The table driver: for each deal i, strain j and leader slot k, NS tricks into
    result[i, k, j], clamped to the window [lo, hi] at the same index (row-major (i, k, j))
    when lo and hi are given (window_root), exact when they are NULL.  One TT serves a
    strain's four leaders (its entries are keyed by strain and seat out, not by leader)."""
    cdef Py_ssize_t i, j, k, w
    cdef int guess, v, side, a, b
    cdef int side_guess[2]
    for i in range(counts.shape[0]):
        for j in range(strains.shape[0]):
            # first guess for MTD(f): the last result with a leader of the same side, else
            # the last result
            guess = -1
            side_guess[0] = side_guess[1] = -1
            for k in range(leaders.shape[1]):
                if leaders[i, k] < 0:
                    continue
                side = leaders[i, k] & 1
                if side_guess[side] >= 0:
                    guess = side_guess[side]
                if lo == NULL:
                    v = solve_root(c, &counts[i, 0, 0], strains[j], leaders[i, k], out, NULL, 0, guess)
                else:
                    w = (i * leaders.shape[1] + k) * strains.shape[0] + j
                    a = lo[w]
                    b = hi[w]
                    if a > b:           # no question asked here
                        result[i, k, j] = -1
                        continue
                    v = window_root(c, &counts[i, 0, 0], strains[j], leaders[i, k], out, NULL, 0,
                                    guess, a, b)
                result[i, k, j] = v
                guess = side_guess[side] = v


def solve_tables(const uint8_t[:, :, ::1] counts, const int[::1] strains,
                 const int[:, ::1] leaders, int out=-1, int tt_bits=16):
    """Batch entry: a fresh Solver over many deals (see Solver.tables); returns an int array."""
    import numpy as np
    res = np.zeros((counts.shape[0], leaders.shape[1], strains.shape[0]), dtype=np.intc)
    cdef int[:, :, ::1] rv = res
    s = Solver(tt_bits)
    if not _layout_ready:
        raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
    with nogil:
        _tables(&(<Solver>s).c, counts, strains, leaders, out, rv, NULL, NULL)
    return res


cdef int _check_window(const uint8_t[:, :, ::1] counts, const int[::1] strains,
                       const int[:, ::1] leaders, const int[:, :, ::1] lo, const int[:, :, ::1] hi,
                       int[:, :, ::1] result) except -1:
    shape = (counts.shape[0], leaders.shape[1], strains.shape[0])
    for name, got in (("lo", (lo.shape[0], lo.shape[1], lo.shape[2])),
                      ("hi", (hi.shape[0], hi.shape[1], hi.shape[2])),
                      ("result", (result.shape[0], result.shape[1], result.shape[2]))):
        if got != shape:
            raise ValueError(f"{name} must have shape (deals, leader slots, strains) = {shape}, "
                             f"got {got}")
    if shape[0] * shape[1] * shape[2] == 0:
        raise ValueError("no cells to solve")
    if leaders.shape[0] != counts.shape[0]:
        raise ValueError("leaders must have one row per deal")
    return 0


def can_take_tables(const uint8_t[:, :, ::1] counts, const int[::1] strains,
                    const int[:, ::1] leaders, const int[:, :, ::1] targets, int out=-1,
                    int tt_bits=16):
    """Batch yes/no entry: can North-South take at least ``targets[i, k, j]`` tricks of deal i
    in strain ``strains[j]`` with ``leaders[i, k]`` on lead (seat ``out`` sitting out, -1 for
    none)?  One null-window search a cell (each the cost of one MTD(f) step, not of an exact
    count), over a fresh Solver with a ``2**tt_bits``-entry TT; releases the GIL.

    Shapes: counts (deals, 4, 24) uint8; strains (strains,) intc; leaders (deals, slots) intc
    (-1 skips a slot); targets (deals, slots, strains) intc, in NS tricks over the tricks left
    (a target below 0 skips the cell).  Returns an int8 array (deals, slots, strains): 1 yes,
    0 no, -1 skipped.  For the East-West side: EW take at least t exactly when NS cannot take
    ``tricks - t + 1``.  Raises ValueError on shapes that do not match."""
    import numpy as np
    if not _layout_ready:
        raise RuntimeError("solver layout not installed (import bideuchre.search.solve)")
    t = np.asarray(targets, dtype=np.intc)
    lo = np.ascontiguousarray(np.where(t < 0, 1, t - 1), dtype=np.intc)
    hi = np.ascontiguousarray(np.where(t < 0, 0, t), dtype=np.intc)
    res = np.full((counts.shape[0], leaders.shape[1], strains.shape[0]), -1, dtype=np.intc)
    s = Solver(tt_bits)
    (<Solver>s).window_tables(counts, strains, leaders, out, lo, hi, res)
    ok = res >= 0
    out8 = np.full(res.shape, -1, dtype=np.int8)
    out8[ok] = (res[ok] >= t[ok]).astype(np.int8)
    return out8
