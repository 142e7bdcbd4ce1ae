/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/xml.h: libxml2 for floe code, under floe-private names.
 *
 * Include this instead of the library header. It declares the
 * functions floe calls as floe__<name>, with the library's own prototypes
 * (__typeof__ of its declaration, so the header checks them), and maps
 * each call to that name: src/lazy/lazy.c defines them and dlopen()s the
 * library on first use. libfloe thus defines no symbol of the library
 * itself and a program that links floe statically and the library too
 * keeps the real one. tests/cli/exports.sh checks it.
 */
#ifndef FLOE_LAZY_XML_H
#define FLOE_LAZY_XML_H

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

extern __typeof__(xmlInitParser) floe__xmlInitParser;
extern __typeof__(xmlReadMemory) floe__xmlReadMemory;
extern __typeof__(xmlDocGetRootElement) floe__xmlDocGetRootElement;
extern __typeof__(xmlNodeGetContent) floe__xmlNodeGetContent;
extern __typeof__(xmlFreeDoc) floe__xmlFreeDoc;
/* xmlFree: libxml2's deallocator, a variable or (with per-thread
 * allocators) the macro (*(__xmlFree())) */
#ifdef LIBXML_THREAD_ALLOC_ENABLED
extern __typeof__(__xmlFree) floe__xmlFree_func;
#define __xmlFree floe__xmlFree_func
#else
extern xmlFreeFunc floe__xmlFree;
#undef xmlFree
#define xmlFree floe__xmlFree
#endif

#define xmlInitParser floe__xmlInitParser
#define xmlReadMemory floe__xmlReadMemory
#define xmlDocGetRootElement floe__xmlDocGetRootElement
#define xmlNodeGetContent floe__xmlNodeGetContent
#define xmlFreeDoc floe__xmlFreeDoc

#endif
