/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The XML documents an S3 server sends back, parsed with libxml2: the
 * ListObjectsV2 result (ListBucketResult: Contents/Key/Size/LastModified,
 * IsTruncated, NextContinuationToken), the InitiateMultipartUpload result
 * (UploadId), the DeleteObjects result (DeleteResult/Error) and the error
 * document (<Error><Code/><Message/></Error>), which S3 may also return with
 * status 200 from CompleteMultipartUpload.
 *
 * This is outside input: the document size, key lengths and entry counts are
 * capped, the network and entity expansion are off, and every failure is
 * FLOE_ECORRUPT naming what was being parsed.
 */
#include "s3.h"

#include "lazy/xml.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_init(void)
{
    xmlInitParser();
}

static int parse_doc(const char *xml, size_t len, const char *what, xmlDocPtr *out)
{
    *out = NULL;
    if (len > FLOE_S3_MAX_XML)
        return floe__error(FLOE_ECORRUPT, "s3",
                           "%s: XML response of %zu bytes exceeds the %d byte cap", what, len,
                           FLOE_S3_MAX_XML);
    if (len == 0)
        return floe__error(FLOE_ECORRUPT, "s3", "%s: empty XML response", what);
    pthread_once(&xml_once, xml_init);
    /* No XML_PARSE_NOENT (entities stay unexpanded), no DTD loading, no network. */
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "s3-response.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc || !xmlDocGetRootElement(doc)) {
        if (doc)
            xmlFreeDoc(doc);
        return floe__error(FLOE_ECORRUPT, "s3",
                           "%s: malformed XML response at offset 0 (%zu bytes)", what, len);
    }
    *out = doc;
    return 0;
}

static bool is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNodePtr child(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

/* Text of an element into an arena string, capped. NULL (no error) when absent. */
static int text(floe_arena *a, xmlNodePtr n, size_t cap, const char *what, char **out)
{
    *out = NULL;
    if (!n)
        return 0;
    xmlChar *t = xmlNodeGetContent(n);
    if (!t)
        return floe__error_nomem();
    size_t len = strlen((const char *)t);
    if (len > cap) {
        xmlFree(t);
        return floe__error(FLOE_ECORRUPT, "s3", "%s: <%s> of %zu bytes exceeds the %zu byte cap",
                           what, (const char *)n->name, len, cap);
    }
    *out = floe__arena_strndup(a, (const char *)t, len);
    xmlFree(t);
    return *out ? 0 : floe__error_nomem();
}

static int text_buf(xmlNodePtr n, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!n)
        return 0;
    xmlChar *t = xmlNodeGetContent(n);
    if (!t)
        return floe__error_nomem();
    size_t len = strlen((const char *)t);
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, t, len);
    buf[len] = '\0';
    xmlFree(t);
    return 0;
}

int floe__s3_parse_time(const char *s, int64_t *ms)
{
    /* ISO 8601 as S3 writes it: 2009-10-12T17:50:30.000Z */
    int y, mo, d, h, mi, sec, frac = 0;
    char z = 0;
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) != 6)
        return FLOE_ECORRUPT;
    const char *p = s + 19;
    if (*p == '.') {
        int digits = 0;
        for (p++; *p >= '0' && *p <= '9'; p++, digits++)
            if (digits < 3)
                frac = frac * 10 + (*p - '0');
        for (; digits < 3; digits++)
            frac *= 10;
    }
    z = *p;
    if (z != 'Z' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return FLOE_ECORRUPT;
    struct tm tm = {0};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    *ms = (int64_t)timegm(&tm) * 1000 + frac;
    return 0;
}

int floe__s3_parse_list(floe_arena *a, const char *xml, size_t len, floe_s3_list_page *out)
{
    static const char *what = "ListObjectsV2";
    memset(out, 0, sizeof *out);
    xmlDocPtr doc;
    FLOE_TRY(parse_doc(xml, len, what, &doc));
    int rc = 0;
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!is(root, "ListBucketResult")) {
        rc = floe__error(FLOE_ECORRUPT, "s3", "%s: root element <%s>, expected <ListBucketResult>",
                         what, (const char *)root->name);
        goto done;
    }
    size_t n = 0;
    for (xmlNodePtr c = root->children; c; c = c->next)
        if (is(c, "Contents"))
            n++;
    if (n > FLOE_S3_MAX_LIST_ENTRIES) {
        rc = floe__error(FLOE_ECORRUPT, "s3", "%s: %zu entries in one page exceed the cap of %d",
                         what, n, FLOE_S3_MAX_LIST_ENTRIES);
        goto done;
    }
    out->entries = floe__arena_calloc(a, n ? n : 1, sizeof *out->entries);
    if (!out->entries) {
        rc = floe__error_nomem();
        goto done;
    }
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (!is(c, "Contents"))
            continue;
        floe_s3_list_entry *e = &out->entries[out->n];
        char *size = NULL, *mtime = NULL;
        if ((rc = text(a, child(c, "Key"), FLOE_S3_MAX_KEY, what, &e->key)) < 0 ||
            (rc = text(a, child(c, "Size"), 32, what, &size)) < 0 ||
            (rc = text(a, child(c, "LastModified"), 64, what, &mtime)) < 0)
            goto done;
        if (!e->key) {
            rc =
                floe__error(FLOE_ECORRUPT, "s3", "%s: <Contents> #%zu without <Key>", what, out->n);
            goto done;
        }
        char *end = NULL;
        long long sz = size ? strtoll(size, &end, 10) : -1;
        if (!size || end == size || *end || sz < 0) {
            rc = floe__error(FLOE_ECORRUPT, "s3", "%s: bad <Size> for key %s", what, e->key);
            goto done;
        }
        e->size = sz;
        e->mtime_ms = 0;
        if (mtime && floe__s3_parse_time(mtime, &e->mtime_ms) < 0) {
            rc = floe__error(FLOE_ECORRUPT, "s3", "%s: bad <LastModified> %s for key %s", what,
                             mtime, e->key);
            goto done;
        }
        out->n++;
    }
    char *trunc = NULL;
    if ((rc = text(a, child(root, "IsTruncated"), 16, what, &trunc)) < 0 ||
        (rc = text(a, child(root, "NextContinuationToken"), FLOE_S3_MAX_KEY, what,
                   &out->next_token)) < 0)
        goto done;
    out->truncated = trunc && strcmp(trunc, "true") == 0;
    if (out->truncated && (!out->next_token || !*out->next_token)) {
        rc = floe__error(FLOE_ECORRUPT, "s3",
                         "%s: IsTruncated is true but NextContinuationToken is missing", what);
        goto done;
    }
done:
    xmlFreeDoc(doc);
    return rc;
}

int floe__s3_parse_error(const char *xml, size_t len, char *code, size_t code_cap, char *message,
                         size_t msg_cap)
{
    code[0] = message[0] = '\0';
    if (len == 0 || len > FLOE_S3_MAX_XML)
        return FLOE_ECORRUPT;
    xmlDocPtr doc;
    int rc = parse_doc(xml, len, "S3 error", &doc);
    if (rc < 0) {
        floe_error_clear();
        return rc;
    }
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!is(root, "Error")) {
        xmlFreeDoc(doc);
        return FLOE_ENOTFOUND;
    }
    rc = text_buf(child(root, "Code"), code, code_cap);
    if (rc == 0)
        rc = text_buf(child(root, "Message"), message, msg_cap);
    xmlFreeDoc(doc);
    return rc;
}

int floe__s3_parse_upload_id(const char *xml, size_t len, char **upload_id)
{
    static const char *what = "CreateMultipartUpload";
    *upload_id = NULL;
    xmlDocPtr doc;
    FLOE_TRY(parse_doc(xml, len, what, &doc));
    xmlNodePtr root = xmlDocGetRootElement(doc);
    int rc = 0;
    xmlChar *t = NULL;
    xmlNodePtr id = is(root, "InitiateMultipartUploadResult") ? child(root, "UploadId") : NULL;
    if (!id || !(t = xmlNodeGetContent(id)) || !*t || strlen((const char *)t) > FLOE_S3_MAX_KEY) {
        rc = floe__error(FLOE_ECORRUPT, "s3", "%s: response has no usable <UploadId>", what);
    } else if (!(*upload_id = floe__strdup((const char *)t))) {
        rc = FLOE_ENOMEM;
    }
    if (t)
        xmlFree(t);
    xmlFreeDoc(doc);
    return rc;
}

int floe__s3_parse_delete_result(const char *xml, size_t len, char *first_key, size_t key_cap,
                                 char *first_code, size_t code_cap, size_t *nerrors)
{
    static const char *what = "DeleteObjects";
    *nerrors = 0;
    first_key[0] = first_code[0] = '\0';
    xmlDocPtr doc;
    FLOE_TRY(parse_doc(xml, len, what, &doc));
    xmlNodePtr root = xmlDocGetRootElement(doc);
    int rc = 0;
    if (!is(root, "DeleteResult")) {
        rc = floe__error(FLOE_ECORRUPT, "s3", "%s: root element <%s>, expected <DeleteResult>",
                         what, (const char *)root->name);
    } else {
        for (xmlNodePtr c = root->children; c && rc == 0; c = c->next) {
            if (!is(c, "Error"))
                continue;
            /* NoSuchKey is not an error for a delete. */
            char code[64];
            rc = text_buf(child(c, "Code"), code, sizeof code);
            if (rc < 0 || strcmp(code, "NoSuchKey") == 0)
                continue;
            if ((*nerrors)++ == 0) {
                memcpy(first_code, code, strlen(code) < code_cap ? strlen(code) + 1 : 1);
                if (strlen(code) >= code_cap)
                    first_code[0] = '\0';
                rc = text_buf(child(c, "Key"), first_key, key_cap);
            }
        }
    }
    xmlFreeDoc(doc);
    return rc;
}
