/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util: the private foundation every other module builds on — error slot,
 * allocation (with a fail-the-Nth-allocation hook for tests), arenas, growable
 * buffers, hash maps, random ids, UUIDs and a small thread pool.
 *
 * Naming: floe__ prefix for helpers shared across modules (not exported).
 */
#ifndef FLOE_UTIL_H
#define FLOE_UTIL_H

#include "floe/common.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLOE_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define FLOE_UNUSED(x) ((void)(x))

#if defined(__GNUC__)
#define FLOE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define FLOE_LIKELY(x) __builtin_expect(!!(x), 1)
#define FLOE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FLOE_PRINTF(a, b)
#define FLOE_LIKELY(x) (x)
#define FLOE_UNLIKELY(x) (x)
#endif

/* Propagate a negative return: `FLOE_TRY(f(x));` */
#define FLOE_TRY(expr)                                                                             \
    do {                                                                                           \
        int floe__rc = (expr);                                                                     \
        if (floe__rc < 0)                                                                          \
            return floe__rc;                                                                       \
    } while (0)

/* ---------------------------------------------------------------- errors */

/* Record an error on this thread and return `code` (so callers can write
 * `return floe__error(FLOE_EINVALID, "json", "missing field %s", name);`). */
int floe__error(int code, const char *subsystem, const char *fmt, ...) FLOE_PRINTF(3, 4);
/* The same, with the error's kind in Iceberg's terms (floe_error_kind: the
 * Java exception an engine throws for it), where the message is Iceberg's:
 * `return floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
 * "Cannot cherry-pick unknown snapshot ID: %lld", id);`. */
int floe__error_as(int code, floe_error_kind kind, const char *subsystem, const char *fmt, ...)
    FLOE_PRINTF(4, 5);
/* Give the current error a kind (after a helper raised it); returns its code. */
int floe__error_set_kind(floe_error_kind kind);
/* The kind whose exception is named `exception` ("NoSuchTableException"),
 * e.g. a REST error response's type; FLOE_KIND_NONE if none is. */
floe_error_kind floe__error_kind_named(const char *exception);
int floe__verror(int code, const char *subsystem, const char *fmt, va_list ap);
/* Prepend context to the current message ("reading m.avro: " + old) and
 * return the current code. If no error is set, sets a generic one. */
int floe__error_context(const char *fmt, ...) FLOE_PRINTF(1, 2);
/* Out-of-memory: sets FLOE_ENOMEM without allocating. */
int floe__error_nomem(void);
/* Current code on this thread (0 if none). */
int floe__error_code(void);
/* After a call that returns NULL on failure: the error it raised, or
 * FLOE_ENOMEM raised when it raised none (an allocation failed). */
int floe__error_or_nomem(void);

#ifdef __clang_analyzer__
/* For clang's static analyzer (clang-tidy) only: these return their code,
 * which is negative, but the analyzer cannot see into another translation
 * unit and follows impossible paths where a raised error is >= 0 (then
 * FLOE_TRY falls through with outputs unset). Spelling the result out lets
 * it prune them; the compiled code is unchanged. */
#define floe__error(code, ...) (floe__error((code), __VA_ARGS__), (code))
#define floe__error_as(code, ...) (floe__error_as((code), __VA_ARGS__), (code))
#define floe__error_set_kind(kind) (floe__error_set_kind(kind), FLOE_ERROR)
#define floe__error_nomem() (floe__error_nomem(), FLOE_ENOMEM)
#define floe__error_or_nomem() (floe__error_or_nomem(), FLOE_ENOMEM)
#endif

/* ---------------------------------------------------------------- memory */

void *floe__malloc(size_t size);
void *floe__calloc(size_t n, size_t size);
void *floe__realloc(void *ptr, size_t size);
void floe__free(void *ptr);
char *floe__strdup(const char *s);
char *floe__strndup(const char *s, size_t n);
/* printf into a fresh allocation (NULL on OOM, error set). */
char *floe__sprintf(const char *fmt, ...) FLOE_PRINTF(1, 2);

/* Test hook: the Nth allocation from now (1-based) and every one after it
 * fails while armed; 0 disarms. Returns how many allocations were attempted
 * since the last arm (so a loop knows when it has covered every site). */
void floe__alloc_fail_at(long nth);
long floe__alloc_count(void);

/* ---------------------------------------------------------------- arena */

/* A bump allocator: many small allocations, one free. Objects parsed from
 * metadata (table metadata, manifests, schemas) own one arena each.
 * With FLOE_ARENA_DEBUG=1 in the environment (the asan preset sets it), every
 * allocation is separate so sanitizers see overruns. */
typedef struct floe_arena floe_arena;

floe_arena *floe__arena_new(size_t block_size);
void floe__arena_free(floe_arena *a);
void *floe__arena_alloc(floe_arena *a, size_t size);   /* 16-byte aligned, NULL on OOM */
void *floe__arena_calloc(floe_arena *a, size_t n, size_t size);
char *floe__arena_strdup(floe_arena *a, const char *s);
char *floe__arena_strndup(floe_arena *a, const char *s, size_t n);
void *floe__arena_memdup(floe_arena *a, const void *p, size_t n);
char *floe__arena_sprintf(floe_arena *a, const char *fmt, ...) FLOE_PRINTF(2, 3);
/* Drop everything allocated but keep the first block for reuse. */
void floe__arena_reset(floe_arena *a);
size_t floe__arena_bytes(const floe_arena *a); /* bytes handed out */

/* ---------------------------------------------------------------- buffers */

/* Growable byte buffer; also the string builder (always NUL-terminated when
 * len > 0 or after any append). */
typedef struct floe_buf {
    char *ptr;
    size_t len;
    size_t cap;
} floe_buf;

#define FLOE_BUF_INIT {NULL, 0, 0}

int floe__buf_reserve(floe_buf *b, size_t extra); /* ensure cap >= len + extra + 1 */
int floe__buf_put(floe_buf *b, const void *data, size_t len);
int floe__buf_puts(floe_buf *b, const char *s);
int floe__buf_putc(floe_buf *b, char c);
int floe__buf_printf(floe_buf *b, const char *fmt, ...) FLOE_PRINTF(2, 3);
int floe__buf_vprintf(floe_buf *b, const char *fmt, va_list ap);
/* Append bytes with JSON string escaping (no surrounding quotes). */
int floe__buf_put_json_escaped(floe_buf *b, const char *s, size_t len);
void floe__buf_clear(floe_buf *b); /* len = 0, keep memory */
void floe__buf_free(floe_buf *b);
/* Hand the memory to the caller (NUL-terminated; caller floe__free()s). */
char *floe__buf_detach(floe_buf *b);

/* Growable array of fixed-size items. */
typedef struct floe_vec {
    void *items;
    size_t len;
    size_t cap;
    size_t item_size;
} floe_vec;

#define FLOE_VEC_INIT(type) {NULL, 0, 0, sizeof(type)}
void *floe__vec_push(floe_vec *v);              /* zeroed slot, NULL on OOM */
void *floe__vec_at(const floe_vec *v, size_t i);
void floe__vec_free(floe_vec *v);

/* ---------------------------------------------------------------- hash maps */

/* Open-addressing hash maps. Keys are borrowed (the caller keeps them alive),
 * values are opaque pointers. */
typedef struct floe_strmap floe_strmap;
floe_strmap *floe__strmap_new(void);
void floe__strmap_free(floe_strmap *m);
int floe__strmap_put(floe_strmap *m, const char *key, void *value); /* replaces */
void *floe__strmap_get(const floe_strmap *m, const char *key);
bool floe__strmap_has(const floe_strmap *m, const char *key);
bool floe__strmap_del(floe_strmap *m, const char *key);
size_t floe__strmap_len(const floe_strmap *m);
/* Iterate: start with *iter = 0; returns false when done. */
bool floe__strmap_next(const floe_strmap *m, size_t *iter, const char **key, void **value);

typedef struct floe_intmap floe_intmap;
floe_intmap *floe__intmap_new(void);
void floe__intmap_free(floe_intmap *m);
int floe__intmap_put(floe_intmap *m, int64_t key, void *value);
void *floe__intmap_get(const floe_intmap *m, int64_t key);
bool floe__intmap_has(const floe_intmap *m, int64_t key);
bool floe__intmap_del(floe_intmap *m, int64_t key);
size_t floe__intmap_len(const floe_intmap *m);
bool floe__intmap_next(const floe_intmap *m, size_t *iter, int64_t *key, void **value);

uint64_t floe__hash_bytes(const void *data, size_t len); /* FNV-1a 64, for tables only */

/* ---------------------------------------------------------------- ids */

/* 16 random bytes (getrandom). */
int floe__random_bytes(void *out, size_t len);
/* UUID v4 as 36 chars + NUL. */
int floe__uuid4(char out[37]);
/* Random positive 63-bit snapshot id (never 0). */
int floe__snapshot_id(int64_t *out);
/* Format / parse the canonical 8-4-4-4-12 form from / to 16 bytes. */
void floe__uuid_format(const uint8_t bytes[16], char out[37]);
int floe__uuid_parse(const char *s, uint8_t out[16]);
/* The value of hex digit c (either case), -1 if it is none. */
int floe__hex_digit(char c);

/* ---------------------------------------------------------------- clock */

int64_t floe__now_ms(void);  /* ms since epoch, wall clock */
int64_t floe__mono_ns(void); /* monotonic ns, for benchmarks and timeouts */

/* ---------------------------------------------------------------- thread pool */

typedef struct floe_pool floe_pool;
/* threads == 0 means the number of online CPUs. */
floe_pool *floe__pool_new(int threads);
void floe__pool_free(floe_pool *p); /* waits for queued work */
/* Run fn(i, payload) for i in [0, n) on the pool and wait; returns the first
 * negative return of any call (all calls still run). Errors raised in workers
 * are copied to the calling thread. With p == NULL runs inline. */
int floe__pool_for(floe_pool *p, size_t n, int (*fn)(size_t i, void *payload), void *payload);
int floe__pool_threads(const floe_pool *p);

/* ---------------------------------------------------------------- properties */

/* An ordered string -> string map with owned copies: table properties,
 * FileIO and catalog configuration, session options. Insertion order is kept
 * (metadata JSON round-trips in order). Small (linear lookup is fine). */
typedef struct floe_kv {
    char *key;
    char *value;
} floe_kv;

typedef struct floe_props {
    floe_kv *items;
    size_t n;
    size_t cap;
} floe_props;

#define FLOE_PROPS_INIT {NULL, 0, 0}

int floe__props_set(floe_props *p, const char *key, const char *value); /* copies both */
const char *floe__props_get(const floe_props *p, const char *key);      /* NULL if absent */
bool floe__props_del(floe_props *p, const char *key);
int floe__props_copy(floe_props *dst, const floe_props *src);           /* dst must be empty */
/* Typed getters: `def` when absent; FLOE_EINVALID (message names the key)
 * when present but not parsable. */
int floe__props_get_int64(const floe_props *p, const char *key, int64_t def, int64_t *out);
int floe__props_get_bool(const floe_props *p, const char *key, bool def, bool *out);
void floe__props_free(floe_props *p);

#endif
