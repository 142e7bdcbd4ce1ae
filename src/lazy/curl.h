/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/curl.h: libcurl for floe code, under floe-private names.
 *
 * Include this instead of the library header. It declares the
 * functions floe calls as floe__<name>, with the library's own prototypes
 * (__typeof__ of its declaration, so the header checks them), and maps
 * each call to that name: src/lazy/lazy.c defines them and dlopen()s the
 * library on first use. libfloe thus defines no symbol of the library
 * itself and a program that links floe statically and the library too
 * keeps the real one. tests/cli/exports.sh checks it.
 */
#ifndef FLOE_LAZY_CURL_H
#define FLOE_LAZY_CURL_H

/* curl's gcc type checks wrap calls to the real names, which the renames
 * below cannot reach: off, like in lazy.c (the three-argument checks stay) */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

extern __typeof__(curl_global_init) floe__curl_global_init;
extern __typeof__(curl_global_cleanup) floe__curl_global_cleanup;
extern __typeof__(curl_easy_init) floe__curl_easy_init;
extern __typeof__(curl_easy_setopt) floe__curl_easy_setopt;
extern __typeof__(curl_easy_getinfo) floe__curl_easy_getinfo;
extern __typeof__(curl_easy_perform) floe__curl_easy_perform;
extern __typeof__(curl_easy_cleanup) floe__curl_easy_cleanup;
extern __typeof__(curl_easy_reset) floe__curl_easy_reset;
extern __typeof__(curl_easy_strerror) floe__curl_easy_strerror;
extern __typeof__(curl_easy_escape) floe__curl_easy_escape;
extern __typeof__(curl_free) floe__curl_free;
extern __typeof__(curl_slist_append) floe__curl_slist_append;
extern __typeof__(curl_slist_free_all) floe__curl_slist_free_all;
extern __typeof__(curl_getdate) floe__curl_getdate;
extern __typeof__(curl_share_init) floe__curl_share_init;
extern __typeof__(curl_share_setopt) floe__curl_share_setopt;
extern __typeof__(curl_share_cleanup) floe__curl_share_cleanup;

#define curl_global_init floe__curl_global_init
#define curl_global_cleanup floe__curl_global_cleanup
#define curl_easy_init floe__curl_easy_init
#undef curl_easy_setopt
#define curl_easy_setopt(handle, opt, param) floe__curl_easy_setopt(handle, opt, param)
#undef curl_easy_getinfo
#define curl_easy_getinfo(handle, info, arg) floe__curl_easy_getinfo(handle, info, arg)
#define curl_easy_perform floe__curl_easy_perform
#define curl_easy_cleanup floe__curl_easy_cleanup
#define curl_easy_reset floe__curl_easy_reset
#define curl_easy_strerror floe__curl_easy_strerror
#define curl_easy_escape floe__curl_easy_escape
#define curl_free floe__curl_free
#define curl_slist_append floe__curl_slist_append
#define curl_slist_free_all floe__curl_slist_free_all
#define curl_getdate floe__curl_getdate
#define curl_share_init floe__curl_share_init
#undef curl_share_setopt
#define curl_share_setopt(share, opt, param) floe__curl_share_setopt(share, opt, param)
#define curl_share_cleanup floe__curl_share_cleanup

#endif
