# Declarations of the double-dummy search core (see _search.pyx).
from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t

cdef struct Entry:        # 32 bytes: a bucket of two is one cache line
    uint64_t key[3]      # the position (see make_key): hands, leader, search configuration
    int8_t lb            # lower bound on NS tricks from here
    int8_t ub            # upper bound on NS tricks from here
    uint8_t best         # best lead, as (suit slot << 3 | rank from the top among the cards out)
    uint8_t depth        # tricks left at this position
    uint16_t rel_lb      # the relevant ranks of each bound: per suit (4 bits each), how many
    uint16_t rel_ub      # of the top ranks out (see Bucket)

cdef enum:
    NSLOT = 64           # slots per bucket of the partition table
    NCHUNK = 8           # chunks of 8 slots per bucket

# The partition table (see core_table.pxi): a bucket holds the bounds of one suit-length
# pattern, at most NSLOT, in chunks of 8 slots stored as arrays over the slots, so that a
# probe compares 8 slots in a few vector instructions (chunk_matches).  Slot k (chunk k >> 3,
# lane k & 7): the owners of the relevant ranks, each suit top-aligned in its byte (bit
# 8*s+7 = the highest rank of suit s still out) -- seats 0-3 (at least one copy), then the
# ranks some seat holds twice; zero where irrelevant -- and the relevant ranks themselves
# (the top d_s bits of each suit's byte), a lower and an upper bound on NS tricks, and the
# best lead as (suit slot << 3 | rank from the top among the cards out).
cdef struct Chunk:        # 224 bytes: 8 slots
    uint32_t rel[8]
    uint32_t own[5][8]
    int8_t lb[8]
    int8_t ub[8]
    uint8_t best[8]
    uint8_t pad[8]

cdef struct Bucket:       # 32 + 8 * 224 bytes
    uint64_t key         # lengths per seat and suit (copies counted), tricks left, leader, strain, seat out
    uint32_t n           # slots in use (a prefix)
    uint32_t pad[5]      # the chunks start 32-byte aligned
    Chunk ch[NCHUNK]

cdef struct Ctx:
    uint32_t m1[4]       # cards held (at least one copy), effective layout: suit slot * 8 + order
    uint32_t m2[4]       # cards held twice (double decks)
    int trump            # trump suit slot, -1 in NT and NTL
    int nxt[4]           # next seat to play after each seat (skips a seat sitting out)
    int trick_size       # 4, or 3 in a lone hand
    int ntrick           # cards in the current trick
    int led_suit
    int win_seat
    int win_bit
    int to_move
    uint32_t trick_mask  # cards in the current trick
    Entry* tt            # exact positions
    uint64_t tt_mask
    Bucket* gt           # the partition table: bounds that hold for many positions
    uint64_t gt_mask     # buckets - 1
    uint32_t stamp       # strain + 1 | (seat out + 1) << 4
    uint64_t nodes
    int exact_above      # the exact table only at trick boundaries with more tricks left
    uint32_t rel         # set by search(): the cards its result depends on (see search)
    uint32_t span        # the current trick's move classes (see search)

# Shared with other C modules (_lone.pyx): the card layout installed by set_layout()
# from bideuchre.rules, and the squeeze table that keys positions on relative ranks.
cdef uint8_t LAYOUT[6][24]      # strain, card id -> effective bit (suit slot * 8 + order)
cdef uint8_t PEXT[256][256]     # PEXT[present][held]: held squeezed onto the present cards
cdef bint _layout_ready

cdef void squeeze_key(const uint32_t* m1, const uint32_t* m2, int n, bint double,
                      uint32_t* key) noexcept nogil

cdef int solve_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                    const int* trick, int ntrick, int guess) noexcept nogil
cdef int window_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                     const int* trick, int ntrick, int guess, int lo, int hi) noexcept nogil
cdef int can_take_root(Ctx* c, const uint8_t* counts, int strain, int leader, int out,
                       const int* trick, int ntrick, int target) noexcept nogil
cdef int ctx_init(Ctx* c, int tt_bits) noexcept nogil
cdef void ctx_free(Ctx* c) noexcept nogil
