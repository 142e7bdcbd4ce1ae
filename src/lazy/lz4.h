/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/lz4.h: liblz4's frame API (LZ4F_*, decompression only) for floe
 * code, under floe-private names: the LZ4-compressed Puffin footers of
 * format/puffin-spec.md ("a single LZ4 compression frame").
 *
 * Include this instead of <lz4frame.h>. It declares the functions floe
 * calls as floe__<name>, with the library's own prototypes (__typeof__ of
 * its declaration, so the header checks them), and maps each call to that
 * name: src/lazy/lazy.c defines them and dlopen()s liblz4.so.1 on first
 * use. Without the library LZ4F_createDecompressionContext() fails and
 * leaves the context NULL, and LZ4F_isError() holds every code an error.
 */
#ifndef FLOE_LAZY_LZ4_H
#define FLOE_LAZY_LZ4_H

#include <lz4frame.h>

extern __typeof__(LZ4F_createDecompressionContext) floe__LZ4F_createDecompressionContext;
extern __typeof__(LZ4F_freeDecompressionContext) floe__LZ4F_freeDecompressionContext;
extern __typeof__(LZ4F_getFrameInfo) floe__LZ4F_getFrameInfo;
extern __typeof__(LZ4F_decompress) floe__LZ4F_decompress;
extern __typeof__(LZ4F_isError) floe__LZ4F_isError;
extern __typeof__(LZ4F_getErrorName) floe__LZ4F_getErrorName;

#define LZ4F_createDecompressionContext floe__LZ4F_createDecompressionContext
#define LZ4F_freeDecompressionContext floe__LZ4F_freeDecompressionContext
#define LZ4F_getFrameInfo floe__LZ4F_getFrameInfo
#define LZ4F_decompress floe__LZ4F_decompress
#define LZ4F_isError floe__LZ4F_isError
#define LZ4F_getErrorName floe__LZ4F_getErrorName

/* The SONAME lazy.c loads, for error messages. */
#define FLOE_LZ4_SONAME "liblz4.so.1"

#endif
