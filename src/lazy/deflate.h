/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/deflate.h: libdeflate (whole-buffer DEFLATE decompression) for floe
 * code, under floe-private names.
 *
 * Include this instead of <libdeflate.h>. It declares the functions floe
 * calls as floe__<name>, with the library's own prototypes (__typeof__ of
 * its declaration, so the header checks them), and maps each call to that
 * name: src/lazy/lazy.c defines them and dlopen()s libdeflate.so.0 on first
 * use. Without the library libdeflate_alloc_decompressor() returns NULL and
 * callers fall back to zlib's streaming inflate.
 */
#ifndef FLOE_LAZY_DEFLATE_H
#define FLOE_LAZY_DEFLATE_H

#include <libdeflate.h>

extern __typeof__(libdeflate_alloc_decompressor) floe__libdeflate_alloc_decompressor;
extern __typeof__(libdeflate_free_decompressor) floe__libdeflate_free_decompressor;
extern __typeof__(libdeflate_deflate_decompress) floe__libdeflate_deflate_decompress;

#define libdeflate_alloc_decompressor floe__libdeflate_alloc_decompressor
#define libdeflate_free_decompressor floe__libdeflate_free_decompressor
#define libdeflate_deflate_decompress floe__libdeflate_deflate_decompress

#endif
