/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thread-local error slot (libgit2 style): a failing function records
 * code, kind, subsystem and message here and returns the negative code. Context is
 * prepended while unwinding. Nothing here allocates, so out-of-memory can
 * always be reported.
 */
#include "util.h"

#include <stdio.h>
#include <string.h>

#ifdef __clang_analyzer__
#undef floe__error
#undef floe__error_as
#undef floe__error_set_kind
#undef floe__error_nomem
#undef floe__error_or_nomem
#endif

#define FLOE_ERRMSG_MAX 2048

typedef struct floe_error_slot {
    floe_error pub;
    char subsystem[32];
    char message[FLOE_ERRMSG_MAX];
    bool set;
} floe_error_slot;

static _Thread_local floe_error_slot slot;

const floe_error *floe_error_last(void)
{
    return slot.set ? &slot.pub : NULL;
}

void floe_error_clear(void)
{
    slot.set = false;
    slot.message[0] = '\0';
}

int floe__error_code(void)
{
    return slot.set ? slot.pub.code : 0;
}

const char *floe_error_code_name(int code)
{
    switch (code) {
    case FLOE_OK: return "FLOE_OK";
    case FLOE_ERROR: return "FLOE_ERROR";
    case FLOE_ENOTFOUND: return "FLOE_ENOTFOUND";
    case FLOE_EEXISTS: return "FLOE_EEXISTS";
    case FLOE_EINVALID: return "FLOE_EINVALID";
    case FLOE_EUNSUPPORTED: return "FLOE_EUNSUPPORTED";
    case FLOE_ECONFLICT: return "FLOE_ECONFLICT";
    case FLOE_ECOMMITUNKNOWN: return "FLOE_ECOMMITUNKNOWN";
    case FLOE_ECORRUPT: return "FLOE_ECORRUPT";
    case FLOE_EIO: return "FLOE_EIO";
    case FLOE_ENOMEM: return "FLOE_ENOMEM";
    case FLOE_EUSER: return "FLOE_EUSER";
    case FLOE_ITEROVER: return "FLOE_ITEROVER";
    default: return "FLOE_E?";
    }
}

static void set_subsystem(const char *subsystem)
{
    snprintf(slot.subsystem, sizeof slot.subsystem, "%s", subsystem ? subsystem : "floe");
}

int floe__verror(int code, const char *subsystem, const char *fmt, va_list ap)
{
    if (code >= 0)
        code = FLOE_ERROR;
    set_subsystem(subsystem);
    vsnprintf(slot.message, sizeof slot.message, fmt, ap);
    slot.pub.code = code;
    slot.pub.kind = FLOE_KIND_NONE;
    slot.pub.subsystem = slot.subsystem;
    slot.pub.message = slot.message;
    slot.set = true;
    return code;
}

/* floe_error_kind -> the Java exception's simple name (index = kind). */
static const char *const kind_names[] = {
    [FLOE_KIND_VALIDATION] = "ValidationException",
    [FLOE_KIND_ILLEGAL_ARGUMENT] = "IllegalArgumentException",
    [FLOE_KIND_DUPLICATE_WAP_COMMIT] = "DuplicateWAPCommitException",
    [FLOE_KIND_NO_SUCH_TABLE] = "NoSuchTableException",
    [FLOE_KIND_NO_SUCH_NAMESPACE] = "NoSuchNamespaceException",
    [FLOE_KIND_ALREADY_EXISTS] = "AlreadyExistsException",
    [FLOE_KIND_NAMESPACE_NOT_EMPTY] = "NamespaceNotEmptyException",
    [FLOE_KIND_NO_SUCH_PROCEDURE] = "NoSuchProcedureException",
    [FLOE_KIND_CATALOG_NOT_FOUND] = "CatalogNotFoundException",
    [FLOE_KIND_COMMIT_FAILED] = "CommitFailedException",
    [FLOE_KIND_NO_SUCH_VIEW] = "NoSuchViewException",
    [FLOE_KIND_ILLEGAL_STATE] = "IllegalStateException",
    [FLOE_KIND_ANALYSIS] = "AnalysisException",
};

floe_error_kind floe__error_kind_named(const char *exception)
{
    for (size_t k = 1; exception && k < FLOE_ARRAY_LEN(kind_names); k++)
        if (strcmp(kind_names[k], exception) == 0)
            return (floe_error_kind)k;
    return FLOE_KIND_NONE;
}

int floe__error_set_kind(floe_error_kind kind)
{
    if (!slot.set)
        return floe__error_as(FLOE_ERROR, kind, "floe", "unknown error");
    slot.pub.kind = kind;
    return slot.pub.code;
}

const char *floe_error_exception(const floe_error *e)
{
    if (!e)
        return "RuntimeException";
    if (e->kind > FLOE_KIND_NONE && (size_t)e->kind < FLOE_ARRAY_LEN(kind_names))
        return kind_names[e->kind];
    /* No kind of its own: the exception Iceberg raises for the code. */
    switch (e->code) {
    case FLOE_ENOTFOUND: return "NotFoundException";
    case FLOE_EEXISTS: return "AlreadyExistsException";
    case FLOE_EINVALID: return "IllegalArgumentException";
    case FLOE_ECONFLICT: return "CommitFailedException";
    case FLOE_ECOMMITUNKNOWN: return "CommitStateUnknownException";
    case FLOE_EUNSUPPORTED: return "UnsupportedOperationException";
    case FLOE_ECORRUPT:
    case FLOE_EIO: return "RuntimeIOException";
    case FLOE_ENOMEM: return "OutOfMemoryError";
    default: return "RuntimeException";
    }
}

int floe__error(int code, const char *subsystem, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(code, subsystem, fmt, ap);
    va_end(ap);
    return rc;
}

int floe__error_as(int code, floe_error_kind kind, const char *subsystem, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(code, subsystem, fmt, ap);
    va_end(ap);
    slot.pub.kind = kind;
    return rc;
}

int floe__error_nomem(void)
{
    set_subsystem("alloc");
    snprintf(slot.message, sizeof slot.message, "out of memory");
    slot.pub.code = FLOE_ENOMEM;
    slot.pub.kind = FLOE_KIND_NONE;
    slot.pub.subsystem = slot.subsystem;
    slot.pub.message = slot.message;
    slot.set = true;
    return FLOE_ENOMEM;
}

int floe__error_or_nomem(void)
{
    int rc = floe__error_code();
    return rc < 0 ? rc : floe__error_nomem();
}

int floe__error_context(const char *fmt, ...)
{
    char prefix[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (!slot.set)
        return floe__error(FLOE_ERROR, "floe", "%s", prefix);
    /* The out-of-memory message stays as it is: context is not worth a
     * confusing message when the process is starving. */
    if (slot.pub.code == FLOE_ENOMEM)
        return FLOE_ENOMEM;
    size_t plen = strlen(prefix), mlen = strlen(slot.message);
    if (plen + 2 + mlen + 1 > sizeof slot.message)
        mlen = sizeof slot.message - plen - 3;
    if (plen + 2 >= sizeof slot.message)
        return slot.pub.code;
    memmove(slot.message + plen + 2, slot.message, mlen);
    memcpy(slot.message, prefix, plen);
    slot.message[plen] = ':';
    slot.message[plen + 1] = ' ';
    slot.message[plen + 2 + mlen] = '\0';
    return slot.pub.code;
}

const char *floe_version(void)
{
    return FLOE_VERSION;
}
