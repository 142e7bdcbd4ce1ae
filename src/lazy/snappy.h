/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/snappy.h: libsnappy for floe code, under floe-private names.
 *
 * Include this instead of the library header. It declares the
 * functions floe calls as floe__<name>, with the library's own prototypes
 * (__typeof__ of its declaration, so the header checks them), and maps
 * each call to that name: src/lazy/lazy.c defines them and dlopen()s the
 * library on first use. libfloe thus defines no symbol of the library
 * itself and a program that links floe statically and the library too
 * keeps the real one. tests/cli/exports.sh checks it.
 */
#ifndef FLOE_LAZY_SNAPPY_H
#define FLOE_LAZY_SNAPPY_H

#include <snappy-c.h>

extern __typeof__(snappy_compress) floe__snappy_compress;
extern __typeof__(snappy_uncompress) floe__snappy_uncompress;
extern __typeof__(snappy_max_compressed_length) floe__snappy_max_compressed_length;
extern __typeof__(snappy_uncompressed_length) floe__snappy_uncompressed_length;

#define snappy_compress floe__snappy_compress
#define snappy_uncompress floe__snappy_uncompress
#define snappy_max_compressed_length floe__snappy_max_compressed_length
#define snappy_uncompressed_length floe__snappy_uncompressed_length

#endif
