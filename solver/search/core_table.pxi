# Included by _search.pyx (one C module: the compiler inlines across these files).
# The transposition tables: exact positions and the partition table.

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
    """The position's owner planes in the top-aligned layout (see Bucket)."""
    cdef int q
    cdef uint32_t dbl = c.m2[0] | c.m2[1] | c.m2[2] | c.m2[3]
    for q in range(4):
        own[q] = to_top(c.m1[q], allm, top) if c.m1[q] else 0
    own[4] = to_top(dbl, allm, top) if dbl else 0


cdef inline uint64_t chunk_matches(const Chunk* ch, const uint32_t* own) noexcept nogil:
    """The slots of a chunk (bit k for lane k) whose bound holds for a position with owner
    planes `own` (see tt_owners): it agrees with the slot on every relevant rank.  A loop of
    fixed trip count with no branch (vector code); the flags packed by one multiplication."""
    cdef uint8_t f[8]
    cdef uint64_t v
    cdef uint32_t r, x
    cdef int k
    for k in range(8):
        r = ch.rel[k]
        x = (((own[0] & r) ^ ch.own[0][k]) | ((own[1] & r) ^ ch.own[1][k])
             | ((own[2] & r) ^ ch.own[2][k]) | ((own[3] & r) ^ ch.own[3][k])
             | ((own[4] & r) ^ ch.own[4][k]))
        f[k] = x == 0
    memcpy(&v, f, 8)
    return (v * 0x0102040810204080ULL) >> 56


cdef inline uint64_t slot_matches(const Bucket* b, const uint32_t* own) noexcept nogil:
    """The slots in use of bucket b (bit k for slot k) whose bound holds for a position with
    owner planes `own`."""
    cdef uint64_t m = 0
    cdef int j
    for j in range((<int>b.n + 7) >> 3):
        m |= chunk_matches(&b.ch[j], own) << (8 * j)
    if b.n < NSLOT:
        m &= ((<uint64_t>1) << b.n) - 1
    return m


cdef inline uint64_t chunk_same(const Chunk* ch, uint32_t rel, const uint32_t* o) noexcept nogil:
    """The slots of a chunk (bit k for lane k) that store exactly the set of relevant ranks
    `rel` with owner planes `o` (own & rel): gt_store's test, branch-free as chunk_matches."""
    cdef uint8_t f[8]
    cdef uint64_t v
    cdef uint32_t x
    cdef int k
    for k in range(8):
        x = ((ch.rel[k] ^ rel) | (ch.own[0][k] ^ o[0]) | (ch.own[1][k] ^ o[1])
             | (ch.own[2][k] ^ o[2]) | (ch.own[3][k] ^ o[3]) | (ch.own[4][k] ^ o[4]))
        f[k] = x == 0
    memcpy(&v, f, 8)
    return (v * 0x0102040810204080ULL) >> 56


cdef inline void gt_store(Ctx* c, Bucket* b, uint64_t key, const uint32_t* own, uint32_t rel,
                          int left, int value, bint lower, int best) noexcept nogil:
    """Record a bound for the positions agreeing with `own` on the relevant ranks `rel`
    (top-aligned).  The same set already stored gets the bound added; otherwise the next free
    slot, else the slot of the narrowest set (it serves the fewest positions).  A bucket of
    another length pattern is taken over."""
    cdef int i, k = -1, w = -1, pc
    cdef uint32_t o[5]
    cdef uint64_t m = 0
    cdef Chunk* e
    for i in range(5):
        o[i] = own[i] & rel
    if b.key != key:
        b.key = key
        b.n = 0
    for i in range((<int>b.n + 7) >> 3):
        m |= chunk_same(&b.ch[i], rel, o) << (8 * i)
    if b.n < NSLOT:
        m &= ((<uint64_t>1) << b.n) - 1
    if m:
        k = __builtin_ctzll(m)      # the first slot of the same set
    else:                           # a new set: the next free slot, else the narrowest's
        if b.n < NSLOT:
            k = b.n
            b.n += 1
        else:
            for i in range(NSLOT):  # the last of those with the most relevant ranks
                pc = popcount(b.ch[i >> 3].rel[i & 7])
                if pc >= w:
                    k = i
                    w = pc
        e = &b.ch[k >> 3]
        for i in range(5):
            e.own[i][k & 7] = o[i]
        e.rel[k & 7] = rel
        e.lb[k & 7] = 0
        e.ub[k & 7] = <int8_t>left
        e.best[k & 7] = 255
    e = &b.ch[k >> 3]
    k &= 7
    if best != 255:
        e.best[k] = <uint8_t>best
    if lower:
        if value > e.lb[k]:
            e.lb[k] = <int8_t>value
    else:
        if value < e.ub[k]:
            e.ub[k] = <int8_t>value


cdef inline int lowest_kept(uint32_t r, uint32_t sp) noexcept nogil:
    """The order (0-7) within a suit's byte from which the cards are relevant, given the suit's
    marks r (not zero) and its move classes sp (see search): the lowest mark, extended down
    across a class that straddles it."""
    cdef uint32_t holes
    cdef int l = __builtin_ctz(r)
    if l > 0 and (sp >> (l - 1)) & 1:
        holes = ~sp & (((<uint32_t>1) << l) - 1)
        l = top_bit(holes) + 1 if holes else 0
    return l


cdef inline uint32_t close_rel(uint32_t rel, uint32_t span, uint32_t allm) noexcept nogil:
    """The relevant cards out from the marks `rel`: in each suit, every card out at or above
    the lowest mark, extended down across the move classes `span` (see search)."""
    cdef uint32_t out = 0, r
    cdef int s, l
    for s in range(4):
        r = (rel >> (8 * s)) & 0xFF
        if r == 0:
            continue
        l = lowest_kept(r, (span >> (8 * s)) & 0xFF)
        out |= (((<uint32_t>0xFF << l) & 0xFF) << (8 * s)) & allm
    return out
