/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy: libcurl, libxml2, libmicrohttpd, libcrypto, libsnappy, libdeflate and
 * liblz4 loaded on first use.
 *
 * Only S3 (io/s3*.c, io/sigv4.c), the REST catalog client (catalog/rest.c),
 * the REST server (rest/server.c) and the Snappy codec (Parquet and Avro
 * files written with it; libsnappy brings libstdc++) use these libraries, yet linking them makes every
 * process map and relocate about 35 shared objects (GnuTLS, Kerberos, LDAP,
 * ICU, libstdc++, ...) and run their constructors: about 6 ms of CPU before
 * main() on the development machine, most of a `floe sql -c "SELECT
 * count(*) FROM t"` run. So libfloe does not link them: this file defines
 * the functions floe calls under floe-private names with the libraries' own
 * prototypes (floe__curl_easy_init, floe__SHA256, ...; lazy/<lib>.h declares
 * them and maps the calls, so callers include it instead of the library
 * header and a program linking floe statically keeps the real libraries).
 * Each definition dlopen()s the library by its SONAME the first time
 * (thread-safe), looks the real symbol up once and forwards the call.
 * When a library cannot be loaded, calls fail the way the library reports
 * failure (NULL, CURLE_FAILED_INIT, MHD_NO), so callers' error paths name
 * the operation.
 *
 * Variadic functions forward their single optional argument: every
 * curl_easy_setopt / curl_share_setopt / curl_easy_getinfo argument is a
 * long, a pointer or a curl_off_t, all passed as one 64-bit integer-class
 * argument by the LP64 ABIs floe supports; MHD_start_daemon forwards its
 * option list through MHD_start_daemon_va; floe calls
 * MHD_get_*_info without optional arguments.
 */
#include "lazy/crypto.h"
#include "lazy/curl.h"
#include "lazy/deflate.h"
#include "lazy/lz4.h"
#include "lazy/mhd.h"
#include "lazy/snappy.h"
#include "lazy/xml.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

typedef struct lazy_lib {
    const char *const sonames[3];
    pthread_once_t once;
    void *handle;
} lazy_lib;

static lazy_lib lib_curl = {{"libcurl.so.4", "libcurl-gnutls.so.4", NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_xml = {{"libxml2.so.2", NULL, NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_mhd = {{"libmicrohttpd.so.12", NULL, NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_crypto = {{"libcrypto.so.3", NULL, NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_snappy = {{"libsnappy.so.1", NULL, NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_deflate = {{"libdeflate.so.0", NULL, NULL}, PTHREAD_ONCE_INIT, NULL};
static lazy_lib lib_lz4 = {{FLOE_LZ4_SONAME, NULL, NULL}, PTHREAD_ONCE_INIT, NULL};

static void open_curl(void)
{
    for (int i = 0; !lib_curl.handle && lib_curl.sonames[i]; i++)
        lib_curl.handle = dlopen(lib_curl.sonames[i], RTLD_NOW | RTLD_LOCAL);
}
static void open_xml(void)
{
    lib_xml.handle = dlopen(lib_xml.sonames[0], RTLD_NOW | RTLD_LOCAL);
}
static void open_mhd(void)
{
    lib_mhd.handle = dlopen(lib_mhd.sonames[0], RTLD_NOW | RTLD_LOCAL);
}
static void open_snappy(void)
{
    lib_snappy.handle = dlopen(lib_snappy.sonames[0], RTLD_NOW | RTLD_LOCAL);
}
static void open_deflate(void)
{
    lib_deflate.handle = dlopen(lib_deflate.sonames[0], RTLD_NOW | RTLD_LOCAL);
}
static void open_lz4(void)
{
    lib_lz4.handle = dlopen(lib_lz4.sonames[0], RTLD_NOW | RTLD_LOCAL);
}
static void open_crypto(void)
{
    lib_crypto.handle = dlopen(lib_crypto.sonames[0], RTLD_NOW | RTLD_LOCAL);
}

/* The address of `name` in `lib` (cached in *slot), NULL when unavailable. */
static void *lazy_sym(lazy_lib *lib, void (*open_fn)(void), void **slot, const char *name)
{
    void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (p)
        return p;
    pthread_once(&lib->once, open_fn);
    if (!lib->handle)
        return NULL;
    p = dlsym(lib->handle, name);
    __atomic_store_n(slot, p, __ATOMIC_RELEASE);
    return p;
}

/* fn_: the library's `name` or NULL (a data pointer copied into a function
 * pointer, as POSIX dlsym() requires to work) */
#define SYM(lib, name)                                                                             \
    static void *slot_;                                                                            \
    __typeof__(&(name)) fn_;                                                                       \
    do {                                                                                           \
        void *p_ = lazy_sym(&lib_##lib, open_##lib, &slot_, #name);                                \
        memcpy(&fn_, &p_, sizeof fn_);                                                             \
    } while (0)

/* ---------------------------------------------------------------- libcurl */

CURLcode floe__curl_global_init(long flags)
{
    SYM(curl, curl_global_init);
    return fn_ ? fn_(flags) : CURLE_FAILED_INIT;
}
void floe__curl_global_cleanup(void)
{
    SYM(curl, curl_global_cleanup);
    if (fn_)
        fn_();
}
CURL *floe__curl_easy_init(void)
{
    SYM(curl, curl_easy_init);
    return fn_ ? fn_() : NULL;
}
CURLcode floe__curl_easy_setopt(CURL *curl, CURLoption option, ...)
{
    SYM(curl, curl_easy_setopt);
    va_list ap;
    va_start(ap, option);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fn_ ? fn_(curl, option, arg) : CURLE_FAILED_INIT;
}
CURLcode floe__curl_easy_getinfo(CURL *curl, CURLINFO info, ...)
{
    SYM(curl, curl_easy_getinfo);
    va_list ap;
    va_start(ap, info);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fn_ ? fn_(curl, info, arg) : CURLE_FAILED_INIT;
}
CURLcode floe__curl_easy_perform(CURL *curl)
{
    SYM(curl, curl_easy_perform);
    return fn_ ? fn_(curl) : CURLE_FAILED_INIT;
}
void floe__curl_easy_cleanup(CURL *curl)
{
    SYM(curl, curl_easy_cleanup);
    if (fn_)
        fn_(curl);
}
void floe__curl_easy_reset(CURL *curl)
{
    SYM(curl, curl_easy_reset);
    if (fn_)
        fn_(curl);
}
const char *floe__curl_easy_strerror(CURLcode code)
{
    SYM(curl, curl_easy_strerror);
    return fn_ ? fn_(code) : "libcurl could not be loaded";
}
char *floe__curl_easy_escape(CURL *handle, const char *string, int length)
{
    SYM(curl, curl_easy_escape);
    return fn_ ? fn_(handle, string, length) : NULL;
}
void floe__curl_free(void *p)
{
    SYM(curl, curl_free);
    if (fn_)
        fn_(p);
}
struct curl_slist *floe__curl_slist_append(struct curl_slist *list, const char *data)
{
    SYM(curl, curl_slist_append);
    return fn_ ? fn_(list, data) : NULL;
}
void floe__curl_slist_free_all(struct curl_slist *list)
{
    SYM(curl, curl_slist_free_all);
    if (fn_)
        fn_(list);
}
time_t floe__curl_getdate(const char *p, const time_t *unused)
{
    SYM(curl, curl_getdate);
    return fn_ ? fn_(p, unused) : (time_t)-1;
}
CURLSH *floe__curl_share_init(void)
{
    SYM(curl, curl_share_init);
    return fn_ ? fn_() : NULL;
}
CURLSHcode floe__curl_share_setopt(CURLSH *share, CURLSHoption option, ...)
{
    SYM(curl, curl_share_setopt);
    va_list ap;
    va_start(ap, option);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fn_ ? fn_(share, option, arg) : CURLSHE_NOT_BUILT_IN;
}
CURLSHcode floe__curl_share_cleanup(CURLSH *share)
{
    SYM(curl, curl_share_cleanup);
    return fn_ ? fn_(share) : CURLSHE_NOT_BUILT_IN;
}

/* ---------------------------------------------------------------- libxml2 */

void floe__xmlInitParser(void)
{
    SYM(xml, xmlInitParser);
    if (fn_)
        fn_();
}
xmlDocPtr floe__xmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding,
                              int options)
{
    SYM(xml, xmlReadMemory);
    return fn_ ? fn_(buffer, size, URL, encoding, options) : NULL;
}
xmlNodePtr floe__xmlDocGetRootElement(const xmlDoc *doc)
{
    SYM(xml, xmlDocGetRootElement);
    return fn_ ? fn_(doc) : NULL;
}
xmlChar *floe__xmlNodeGetContent(const xmlNode *cur)
{
    SYM(xml, xmlNodeGetContent);
    return fn_ ? fn_(cur) : NULL;
}
void floe__xmlFreeDoc(xmlDocPtr cur)
{
    SYM(xml, xmlFreeDoc);
    if (fn_)
        fn_(cur);
}
/* xmlFree is a variable holding libxml2's deallocator (or, with per-thread
 * allocators, `(*(__xmlFree()))`): ours forwards to the library's. */
#ifdef LIBXML_THREAD_ALLOC_ENABLED
static void no_free(void *p)
{
    (void)p;
}
static xmlFreeFunc no_free_fn = no_free;
xmlFreeFunc *floe__xmlFree_func(void)
{
    SYM(xml, __xmlFree);
    return fn_ ? fn_() : &no_free_fn;
}
#else
static void lazy_xml_free(void *p)
{
    static void *slot_;
    xmlFreeFunc *real = lazy_sym(&lib_xml, open_xml, &slot_, "xmlFree");
    if (real && *real)
        (*real)(p);
}
xmlFreeFunc floe__xmlFree = lazy_xml_free;
#endif

/* ---------------------------------------------------------------- libmicrohttpd */

struct MHD_Daemon *floe__MHD_start_daemon(unsigned int flags, uint16_t port,
                                          MHD_AcceptPolicyCallback apc, void *apc_cls,
                                          MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    SYM(mhd, MHD_start_daemon_va);
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = fn_ ? fn_(flags, port, apc, apc_cls, dh, dh_cls, ap) : NULL;
    va_end(ap);
    return d;
}
void floe__MHD_stop_daemon(struct MHD_Daemon *daemon)
{
    SYM(mhd, MHD_stop_daemon);
    if (fn_)
        fn_(daemon);
}
MHD_socket floe__MHD_quiesce_daemon(struct MHD_Daemon *daemon)
{
    SYM(mhd, MHD_quiesce_daemon);
    return fn_ ? fn_(daemon) : MHD_INVALID_SOCKET;
}
enum MHD_Result floe__MHD_queue_response(struct MHD_Connection *connection,
                                         unsigned int status_code, struct MHD_Response *response)
{
    SYM(mhd, MHD_queue_response);
    return fn_ ? fn_(connection, status_code, response) : MHD_NO;
}
const char *floe__MHD_lookup_connection_value(struct MHD_Connection *connection,
                                              enum MHD_ValueKind kind, const char *key)
{
    SYM(mhd, MHD_lookup_connection_value);
    return fn_ ? fn_(connection, kind, key) : NULL;
}
enum MHD_Result floe__MHD_lookup_connection_value_n(struct MHD_Connection *connection,
                                                    enum MHD_ValueKind kind, const char *key,
                                                    size_t key_size, const char **value_ptr,
                                                    size_t *value_size_ptr)
{
    SYM(mhd, MHD_lookup_connection_value_n);
    return fn_ ? fn_(connection, kind, key, key_size, value_ptr, value_size_ptr) : MHD_NO;
}
const union MHD_DaemonInfo *floe__MHD_get_daemon_info(struct MHD_Daemon *daemon,
                                                      enum MHD_DaemonInfoType info_type, ...)
{
    SYM(mhd, MHD_get_daemon_info);
    return fn_ ? fn_(daemon, info_type) : NULL;
}
const union MHD_ConnectionInfo *floe__MHD_get_connection_info(struct MHD_Connection *connection,
                                                              enum MHD_ConnectionInfoType info_type,
                                                              ...)
{
    SYM(mhd, MHD_get_connection_info);
    return fn_ ? fn_(connection, info_type) : NULL;
}
void floe__MHD_destroy_response(struct MHD_Response *response)
{
    SYM(mhd, MHD_destroy_response);
    if (fn_)
        fn_(response);
}
struct MHD_Response *floe__MHD_create_response_from_buffer(size_t size, void *buffer,
                                                           enum MHD_ResponseMemoryMode mode)
{
    SYM(mhd, MHD_create_response_from_buffer);
    return fn_ ? fn_(size, buffer, mode) : NULL;
}
struct MHD_Response *
floe__MHD_create_response_from_buffer_with_free_callback(size_t size, void *buffer,
                                                         MHD_ContentReaderFreeCallback crfc)
{
    SYM(mhd, MHD_create_response_from_buffer_with_free_callback);
    return fn_ ? fn_(size, buffer, crfc) : NULL;
}
enum MHD_Result floe__MHD_add_response_header(struct MHD_Response *response, const char *header,
                                              const char *content)
{
    SYM(mhd, MHD_add_response_header);
    return fn_ ? fn_(response, header, content) : MHD_NO;
}

/* ---------------------------------------------------------------- libcrypto
 * Without the library: digests fail (NULL / 0, outputs zeroed), and the two
 * helpers that must never fail keep their contract in plain C. */

const EVP_MD *floe__EVP_sha256(void)
{
    SYM(crypto, EVP_sha256);
    return fn_ ? fn_() : NULL;
}
const EVP_MD *floe__EVP_md5(void)
{
    SYM(crypto, EVP_md5);
    return fn_ ? fn_() : NULL;
}
int floe__EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size,
                     const EVP_MD *type, ENGINE *impl)
{
    SYM(crypto, EVP_Digest);
    if (fn_ && type)
        return fn_(data, count, md, size, type, impl);
    memset(md, 0, 16);
    return 0;
}
int floe__EVP_EncodeBlock(unsigned char *t, const unsigned char *f, int n)
{
    SYM(crypto, EVP_EncodeBlock);
    if (fn_)
        return fn_(t, f, n);
    t[0] = 0;
    return 0;
}
unsigned char *floe__HMAC(const EVP_MD *evp_md, const void *key, int key_len,
                          const unsigned char *data, size_t data_len, unsigned char *md,
                          unsigned int *md_len)
{
    SYM(crypto, HMAC);
    if (fn_ && evp_md)
        return fn_(evp_md, key, key_len, data, data_len, md, md_len);
    if (md_len)
        *md_len = 0;
    return NULL;
}
unsigned char *floe__SHA256(const unsigned char *d, size_t n, unsigned char *md)
{
    SYM(crypto, SHA256);
    if (fn_)
        return fn_(d, n, md);
    memset(md, 0, SHA256_DIGEST_LENGTH);
    return NULL;
}
void floe__OPENSSL_cleanse(void *ptr, size_t len)
{
    SYM(crypto, OPENSSL_cleanse);
    if (fn_) {
        fn_(ptr, len);
        return;
    }
    volatile unsigned char *p = ptr;
    while (len--)
        *p++ = 0;
}
int floe__CRYPTO_memcmp(const void *in_a, const void *in_b, size_t len)
{
    SYM(crypto, CRYPTO_memcmp);
    if (fn_)
        return fn_(in_a, in_b, len);
    const unsigned char *a = in_a, *b = in_b;
    unsigned char x = 0;
    for (size_t i = 0; i < len; i++)
        x |= (unsigned char)(a[i] ^ b[i]);
    return x;
}

/* ---------------------------------------------------------------- libsnappy */

snappy_status floe__snappy_compress(const char *input, size_t input_length, char *compressed,
                                    size_t *compressed_length)
{
    SYM(snappy, snappy_compress);
    return fn_ ? fn_(input, input_length, compressed, compressed_length) : SNAPPY_INVALID_INPUT;
}
snappy_status floe__snappy_uncompress(const char *compressed, size_t compressed_length,
                                      char *uncompressed, size_t *uncompressed_length)
{
    SYM(snappy, snappy_uncompress);
    return fn_ ? fn_(compressed, compressed_length, uncompressed, uncompressed_length)
               : SNAPPY_INVALID_INPUT;
}
size_t floe__snappy_max_compressed_length(size_t source_length)
{
    SYM(snappy, snappy_max_compressed_length);
    /* without the library: Snappy's documented bound (compress then fails) */
    return fn_ ? fn_(source_length) : 32 + source_length + source_length / 6;
}
snappy_status floe__snappy_uncompressed_length(const char *compressed, size_t compressed_length,
                                               size_t *result)
{
    SYM(snappy, snappy_uncompressed_length);
    return fn_ ? fn_(compressed, compressed_length, result) : SNAPPY_INVALID_INPUT;
}

/* ---------------------------------------------------------------- libdeflate */

struct libdeflate_decompressor *floe__libdeflate_alloc_decompressor(void)
{
    SYM(deflate, libdeflate_alloc_decompressor);
    return fn_ ? fn_() : NULL;
}
void floe__libdeflate_free_decompressor(struct libdeflate_decompressor *decompressor)
{
    SYM(deflate, libdeflate_free_decompressor);
    if (fn_)
        fn_(decompressor);
}
enum libdeflate_result floe__libdeflate_deflate_decompress(struct libdeflate_decompressor *d,
                                                           const void *in, size_t in_nbytes,
                                                           void *out, size_t out_nbytes_avail,
                                                           size_t *actual_out_nbytes_ret)
{
    SYM(deflate, libdeflate_deflate_decompress);
    return fn_ ? fn_(d, in, in_nbytes, out, out_nbytes_avail, actual_out_nbytes_ret)
               : LIBDEFLATE_BAD_DATA;
}

/* ---------------------------------------------------------------- liblz4 (frames) */

LZ4F_errorCode_t floe__LZ4F_createDecompressionContext(LZ4F_dctx **dctxPtr, unsigned version)
{
    SYM(lz4, LZ4F_createDecompressionContext);
    *dctxPtr = NULL;
    return fn_ ? fn_(dctxPtr, version) : (LZ4F_errorCode_t)-1;
}
LZ4F_errorCode_t floe__LZ4F_freeDecompressionContext(LZ4F_dctx *dctx)
{
    SYM(lz4, LZ4F_freeDecompressionContext);
    return fn_ && dctx ? fn_(dctx) : 0;
}
size_t floe__LZ4F_getFrameInfo(LZ4F_dctx *dctx, LZ4F_frameInfo_t *frameInfoPtr,
                               const void *srcBuffer, size_t *srcSizePtr)
{
    SYM(lz4, LZ4F_getFrameInfo);
    return fn_ ? fn_(dctx, frameInfoPtr, srcBuffer, srcSizePtr) : (size_t)-1;
}
size_t floe__LZ4F_decompress(LZ4F_dctx *dctx, void *dstBuffer, size_t *dstSizePtr,
                             const void *srcBuffer, size_t *srcSizePtr,
                             const LZ4F_decompressOptions_t *dOptPtr)
{
    SYM(lz4, LZ4F_decompress);
    return fn_ ? fn_(dctx, dstBuffer, dstSizePtr, srcBuffer, srcSizePtr, dOptPtr) : (size_t)-1;
}
unsigned floe__LZ4F_isError(LZ4F_errorCode_t code)
{
    SYM(lz4, LZ4F_isError);
    return fn_ ? fn_(code) : 1;
}
const char *floe__LZ4F_getErrorName(LZ4F_errorCode_t code)
{
    SYM(lz4, LZ4F_getErrorName);
    return fn_ ? fn_(code) : FLOE_LZ4_SONAME " is not available";
}
