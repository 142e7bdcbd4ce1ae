/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Common definitions of the public floe API: export macro, error codes and the
 * thread-local error slot. Every fallible function returns 0 or a negative
 * FLOE_E* code; floe_error_last() then describes the failure.
 */
#ifndef FLOE_COMMON_H
#define FLOE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FLOE_EXTERN __attribute__((visibility("default")))
#else
#define FLOE_EXTERN
#endif

#define FLOE_VERSION "0.1.0"
#define FLOE_VERSION_MAJOR 0
#define FLOE_VERSION_MINOR 1
#define FLOE_VERSION_PATCH 0

/* Error codes. 0 is success; every failure is negative. */
typedef enum floe_error_code {
    FLOE_OK = 0,
    FLOE_ERROR = -1,          /* generic failure */
    FLOE_ENOTFOUND = -2,      /* object, table, snapshot, ref ... does not exist */
    FLOE_EEXISTS = -3,        /* object already exists */
    FLOE_EINVALID = -4,       /* invalid argument or invalid metadata */
    FLOE_EUNSUPPORTED = -5,   /* valid but not supported by floe */
    FLOE_ECONFLICT = -6,      /* compare-and-set lost: refresh and retry */
    FLOE_ECOMMITUNKNOWN = -7, /* commit outcome unknown: never delete written files */
    FLOE_ECORRUPT = -8,       /* bad bytes from outside (names file and offset) */
    FLOE_EIO = -9,            /* I/O failure */
    FLOE_ENOMEM = -10,        /* out of memory */
    FLOE_EUSER = -11,         /* a user callback asked to stop */
    FLOE_ITEROVER = -31       /* iteration finished (not an error) */
} floe_error_code;

/* What an error is in Iceberg's terms, set where it is raised: the Java
 * exception an Iceberg engine throws for the same failure (Spark prints its
 * name; floe_error_exception() returns it). FLOE_KIND_NONE: the code says
 * it (FLOE_ENOTFOUND is NotFoundException, FLOE_ECONFLICT
 * CommitFailedException, ...). */
typedef enum floe_error_kind {
    FLOE_KIND_NONE = 0,
    FLOE_KIND_VALIDATION,           /* ValidationException */
    FLOE_KIND_ILLEGAL_ARGUMENT,     /* IllegalArgumentException */
    FLOE_KIND_DUPLICATE_WAP_COMMIT, /* DuplicateWAPCommitException */
    FLOE_KIND_NO_SUCH_TABLE,        /* NoSuchTableException */
    FLOE_KIND_NO_SUCH_NAMESPACE,    /* NoSuchNamespaceException */
    FLOE_KIND_ALREADY_EXISTS,       /* AlreadyExistsException */
    FLOE_KIND_NAMESPACE_NOT_EMPTY,  /* NamespaceNotEmptyException */
    FLOE_KIND_NO_SUCH_PROCEDURE,    /* NoSuchProcedureException */
    FLOE_KIND_CATALOG_NOT_FOUND,    /* CatalogNotFoundException */
    FLOE_KIND_COMMIT_FAILED,        /* CommitFailedException */
    FLOE_KIND_NO_SUCH_VIEW,         /* NoSuchViewException */
    FLOE_KIND_ILLEGAL_STATE,        /* IllegalStateException */
    FLOE_KIND_ANALYSIS              /* AnalysisException: what Spark's analyzer (not its parser)
                                       rejects, raised by floe's SQL front end */
} floe_error_kind;

typedef struct floe_error {
    int code;              /* FLOE_E* */
    const char *subsystem; /* "json", "avro", "parquet", "io", "catalog", ... */
    const char *message;   /* human readable, Iceberg wording where one exists */
    floe_error_kind kind;  /* set where raised; FLOE_KIND_NONE: as the code says */
} floe_error;

/* Last error raised on this thread, or NULL if none. The pointer stays valid
 * until the next floe call on the same thread. */
FLOE_EXTERN const floe_error *floe_error_last(void);

/* Clear this thread's error slot. */
FLOE_EXTERN void floe_error_clear(void);

/* Name of an error code ("FLOE_ENOTFOUND"); never NULL. */
FLOE_EXTERN const char *floe_error_code_name(int code);

/* The Java exception an Iceberg engine raises for `e` ("ValidationException",
 * "NoSuchTableException", ...): its kind's, else its code's; never NULL
 * ("RuntimeException" for NULL). Spark prints this name; `floe sql` too. */
FLOE_EXTERN const char *floe_error_exception(const floe_error *e);

/* Library version string. */
FLOE_EXTERN const char *floe_version(void);

/* Free a string the library returned to the caller (through a `char **`
 * out-parameter, by any module); NULL is fine. The one string free of the
 * API: such strings come from floe's allocator (floe_set_allocator). */
FLOE_EXTERN void floe_string_free(char *s);

/* ---------------------------------------------------------------- properties */

/* Ordered string properties: a string -> string map that keeps insertion
 * order, used for table and namespace properties and for FileIO and
 * catalog configuration (the `const floe_props *` arguments and options
 * fields). Keys are unique: setting a key again replaces its value in
 * place. Keys and values are copied in; strings handed out are borrowed
 * from the map until it changes or is freed. docs/catalog.md shows it in
 * use (examples/namespace_props.c). */
typedef struct floe_props floe_props;

/* A new, empty map; the caller frees *out with floe_props_free().
 * Errors: FLOE_ENOMEM. */
FLOE_EXTERN int floe_props_new(floe_props **out);

/* Set `key` to `value` (both copied). A new key goes last; an existing one
 * keeps its place. Errors: FLOE_EINVALID (a NULL argument), FLOE_ENOMEM
 * (the map is unchanged). */
FLOE_EXTERN int floe_props_set(floe_props *props, const char *key, const char *value);

/* The value of `key`, or NULL when it is absent (or props is NULL). */
FLOE_EXTERN const char *floe_props_get(const floe_props *props, const char *key);

/* Remove `key`; true when it was there. */
FLOE_EXTERN bool floe_props_remove(floe_props *props, const char *key);

/* Iteration in insertion order: the number of entries (0 for NULL), and
 * the key and value of entry `i` (NULL when i >= count). */
FLOE_EXTERN size_t floe_props_count(const floe_props *props);
FLOE_EXTERN const char *floe_props_key_at(const floe_props *props, size_t i);
FLOE_EXTERN const char *floe_props_value_at(const floe_props *props, size_t i);

/* Free the map and its strings; NULL is ignored. */
FLOE_EXTERN void floe_props_free(floe_props *props);

/* Allocator hooks. All library allocation goes through these. Set before any
 * other call; NULL members restore the default (libc). */
typedef struct floe_allocator {
    void *(*malloc_fn)(size_t size, void *payload);
    void *(*realloc_fn)(void *ptr, size_t size, void *payload);
    void (*free_fn)(void *ptr, void *payload);
    void *payload;
} floe_allocator;

FLOE_EXTERN int floe_set_allocator(const floe_allocator *allocator);

#ifdef __cplusplus
}
#endif
#endif
