/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/crypto.h: libcrypto for floe code, under floe-private names.
 *
 * Include this instead of the library header. It declares the
 * functions floe calls as floe__<name>, with the library's own prototypes
 * (__typeof__ of its declaration, so the header checks them), and maps
 * each call to that name: src/lazy/lazy.c defines them and dlopen()s the
 * library on first use. libfloe thus defines no symbol of the library
 * itself and a program that links floe statically and the library too
 * keeps the real one. tests/cli/exports.sh checks it.
 */
#ifndef FLOE_LAZY_CRYPTO_H
#define FLOE_LAZY_CRYPTO_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

extern __typeof__(EVP_sha256) floe__EVP_sha256;
extern __typeof__(EVP_md5) floe__EVP_md5;
extern __typeof__(EVP_Digest) floe__EVP_Digest;
extern __typeof__(EVP_EncodeBlock) floe__EVP_EncodeBlock;
extern __typeof__(HMAC) floe__HMAC;
extern __typeof__(SHA256) floe__SHA256;
extern __typeof__(OPENSSL_cleanse) floe__OPENSSL_cleanse;
extern __typeof__(CRYPTO_memcmp) floe__CRYPTO_memcmp;

#define EVP_sha256 floe__EVP_sha256
#define EVP_md5 floe__EVP_md5
#define EVP_Digest floe__EVP_Digest
#define EVP_EncodeBlock floe__EVP_EncodeBlock
#define HMAC floe__HMAC
#define SHA256 floe__SHA256
#define OPENSSL_cleanse floe__OPENSSL_cleanse
#define CRYPTO_memcmp floe__CRYPTO_memcmp

#endif
