/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/column: decoding one column chunk (all its pages) into levels and
 * physical values — the reader's unit of work.
 */
#ifndef FLOE_PARQUET_COLUMN_H
#define FLOE_PARQUET_COLUMN_H

#include "parquet/encoding.h"
#include "parquet/parquet.h"

typedef struct floe_pq_leafdata {
    size_t n;       /* level entries */
    floe_buf def;   /* uint16 per entry (empty when max_def == 0) */
    floe_buf rep;   /* uint16 per entry (empty when max_rep == 0) */
    size_t nvals;   /* non-null values */
    int width;      /* fixed width in bytes (0: byte arrays in bin) */
    floe_buf fixed; /* nvals * width (booleans: one byte each) */
    floe_pq_binvals bin;
    /* dictionary of the chunk */
    size_t ndict;
    floe_buf dict_fixed;
    floe_pq_binvals dict_bin;
    /* batch cursor (reader): level entries [eb, ee) and values [vb, ve) of
     * the rows being assembled; epos/vpos: where the next batch starts */
    size_t eb, ee, vb, ve, epos, vpos;
    bool moved; /* buffers handed to an Arrow array */
    floe_buf page;    /* scratch: decompressed page */
    floe_buf raw;     /* scratch: the chunk bytes */
    uint32_t *idx;    /* scratch: dictionary indices */
    size_t idx_cap;
    void *zctx; /* zstd context borrowed from the reader (NULL: one-shot) */
    /* page cursor of the chunk being decoded (floe__pq_chunk_more) */
    floe_input *in;
    const floe_pq_column_chunk *cc;
    const floe_pq_node *leaf;
    int64_t start;  /* file offset of raw[0] */
    size_t at;      /* offset in raw of the next page header */
    size_t total;   /* level entries decoded from the chunk so far */
    bool seen_data; /* a data page was decoded (no dictionary page after it) */
} floe_pq_leafdata;

void floe__pq_leafdata_reset(floe_pq_leafdata *d);
void floe__pq_leafdata_free(floe_pq_leafdata *d);

/* Decode column chunk `cc` of leaf `leaf` from `in`: all its pages. */
int floe__pq_read_chunk(floe_input *in, const floe_pq_column_chunk *cc, const floe_pq_node *leaf,
                        floe_pq_leafdata *out);
/* The same a few pages at a time, so that a batch of rows needs buffers of
 * its own size, not the row group's: begin reads the chunk's bytes (`whole`:
 * sizes the outputs for every value, as floe__pq_read_chunk), and each
 * floe__pq_chunk_more first drops the entries before epos / values before
 * vpos (a batch consumed them) and then decodes pages until at least
 * `need` level entries from epos on are decoded, or the chunk ends (then
 * its entry count is checked against the footer's). `cc`, `leaf` and `in`
 * are borrowed until the chunk is done. */
int floe__pq_chunk_begin(floe_input *in, const floe_pq_column_chunk *cc, const floe_pq_node *leaf,
                         floe_pq_leafdata *out, bool whole);
int floe__pq_chunk_more(floe_pq_leafdata *d, size_t need);
/* Pass over the next `skip` level entries of a flat leaf (rows): decoded
 * ones are consumed, whole data pages inside the skip are not even
 * decompressed. FLOE_ECORRUPT when the chunk ends first. */
int floe__pq_chunk_skip(floe_pq_leafdata *d, size_t skip);

/* Recycled output buffers (pool.c): a reference-counted pool shared by a
 * reader and the batches it handed out. */
typedef struct floe_pq_pool floe_pq_pool;
/* A pool keeping at most `max` buffers; NULL when out of memory (the
 * reader then allocates as usual). */
floe_pq_pool *floe__pq_pool_new(size_t max);
/* Drop the reader's reference. */
void floe__pq_pool_release(floe_pq_pool *p);
/* An empty buffer (ptr NULL) takes a pooled allocation, preferably of at
 * least `want` bytes; no-op when the pool is empty or p is NULL. */
void floe__pq_pool_fill(floe_pq_pool *p, floe_buf *b, size_t want);
void floe__pq_pool_fill_bin(floe_pq_pool *p, floe_pq_binvals *b, size_t want_values);
/* Capacities of a primitive builder's buffers, in ArrowArray buffer order,
 * read before floe__arrow_builder_finish hands them out. */
void floe__pq_pool_caps(const floe_arrow_builder *b, size_t cap[3]);
/* Declare the buffer bytes of a batch handed out: the pool keeps at most
 * the largest such amount (one batch), freeing the rest. */
void floe__pq_pool_batch(floe_pq_pool *p, size_t bytes);
/* Make the release callback of the finished primitive column `a` return
 * its buffers to the pool (no-op when p is NULL or a has children).
 * FLOE_ENOMEM (a unchanged). */
int floe__pq_pool_wrap(floe_pq_pool *p, struct ArrowArray *a, const size_t cap[3]);

#endif
