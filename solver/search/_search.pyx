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
from libc.string cimport memset, memcpy

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
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_ctzll(unsigned long long x) nogil
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
    cdef int gt_bits
    memset(c, 0, sizeof(Ctx))
    c.tt = <Entry*>bde_table_alloc(((<uint64_t>1) << tt_bits) * sizeof(Entry))
    if c.tt == NULL:
        return -1
    c.tt_mask = ((<uint64_t>1) << tt_bits) - 1
    # the partition table: about half the exact table's memory, in buckets of 64 slots (one
    # suit-length pattern each: a pattern holds many bounds, so on double decks more slots
    # in fewer buckets pay; 64 x 2^(bits-7))
    gt_bits = tt_bits - 7 if tt_bits > 7 else 0
    c.gt = <Bucket*>bde_table_alloc(((<uint64_t>1) << gt_bits) * sizeof(Bucket))
    if c.gt == NULL:
        free(c.tt)
        c.tt = NULL
        return -1
    c.gt_mask = ((<uint64_t>1) << gt_bits) - 1
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


# The core by function, as DDS splits it: the tables, the bounds, the moves, the search.
include "core_table.pxi"
include "core_bounds.pxi"
include "core_moves.pxi"
include "core_search.pxi"


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
    bytes, and a partition table of ``2**(tt_bits - 7)`` buckets of 64 bounds (1,824 bytes a
    bucket: about 0.45 of the exact table's memory).  ``exact_above`` (tricks, default 0):
    the exact table is probed and written only at trick boundaries with more tricks left than
    this; below, the partition table alone (see the property).

    Not thread-safe: one Solver per thread.  Counts are per seat, per card id (4 × 24, uint8).
    Raises ValueError for tt_bits outside 4..28 or exact_above outside 0..12, MemoryError when
    the tables cannot be allocated.
    """

    cdef Ctx c

    def __cinit__(self, int tt_bits=16, int exact_above=0):
        if tt_bits < 4 or tt_bits > 28:
            raise ValueError(f"tt_bits must be 4..28, got {tt_bits}")
        if exact_above < 0 or exact_above > 12:
            raise ValueError(f"exact_above must be 0..12 tricks, got {exact_above}")
        if ctx_init(&self.c, tt_bits) != 0:
            raise MemoryError("cannot allocate the transposition table")
        self.c.exact_above = exact_above

    @property
    def exact_above(self):
        """Tricks left at or below which a trick boundary skips the exact-position table (its
        key, probe and store) and relies on the partition table alone.  A speed setting only:
        every result is the same whatever its value (the exact table only stores bounds that
        the search proved).  Measured per deck form (``bideuchre.search.solve.exact_above_for``):
        on double32 the partition table answers nearly every probe the exact one would."""
        return self.c.exact_above

    @exact_above.setter
    def exact_above(self, int v):
        if v < 0 or v > 12:
            raise ValueError(f"exact_above must be 0..12 tricks, got {v}")
        self.c.exact_above = v

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

    def partition_load(self):
        """How full the partition table is: ``(buckets in use, bounds stored, most bounds in
        one bucket)``; a bucket holds the bounds of one suit-length pattern, at most 64."""
        cdef uint64_t i, used = 0, total = 0, most = 0
        for i in range(self.c.gt_mask + 1):
            if self.c.gt[i].key != 0 and self.c.gt[i].n > 0:
                used += 1
                total += self.c.gt[i].n
                if self.c.gt[i].n > most:
                    most = self.c.gt[i].n
        return int(used), int(total), int(most)

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
                 const int[:, ::1] leaders, int out=-1, int tt_bits=16, int exact_above=0):
    """Batch entry: a fresh Solver(tt_bits, exact_above) over many deals (see Solver.tables);
    returns an int array."""
    import numpy as np
    res = np.zeros((counts.shape[0], leaders.shape[1], strains.shape[0]), dtype=np.intc)
    cdef int[:, :, ::1] rv = res
    s = Solver(tt_bits, exact_above)
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
                    int tt_bits=16, int exact_above=0):
    """Batch yes/no entry: can North-South take at least ``targets[i, k, j]`` tricks of deal i
    in strain ``strains[j]`` with ``leaders[i, k]`` on lead (seat ``out`` sitting out, -1 for
    none)?  One null-window search a cell (each the cost of one MTD(f) step, not of an exact
    count), over a fresh Solver(tt_bits, exact_above); releases the GIL.

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
    s = Solver(tt_bits, exact_above)
    (<Solver>s).window_tables(counts, strains, leaders, out, lo, hi, res)
    ok = res >= 0
    out8 = np.full(res.shape, -1, dtype=np.int8)
    out8[ok] = (res[ok] >= t[ok]).astype(np.int8)
    return out8
