/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lazy/mhd.h: libmicrohttpd for floe code, under floe-private names.
 *
 * Include this instead of the library header. It declares the
 * functions floe calls as floe__<name>, with the library's own prototypes
 * (__typeof__ of its declaration, so the header checks them), and maps
 * each call to that name: src/lazy/lazy.c defines them and dlopen()s the
 * library on first use. libfloe thus defines no symbol of the library
 * itself and a program that links floe statically and the library too
 * keeps the real one. tests/cli/exports.sh checks it.
 */
#ifndef FLOE_LAZY_MHD_H
#define FLOE_LAZY_MHD_H

#include <microhttpd.h>

extern __typeof__(MHD_start_daemon) floe__MHD_start_daemon;
extern __typeof__(MHD_stop_daemon) floe__MHD_stop_daemon;
extern __typeof__(MHD_quiesce_daemon) floe__MHD_quiesce_daemon;
extern __typeof__(MHD_queue_response) floe__MHD_queue_response;
extern __typeof__(MHD_lookup_connection_value) floe__MHD_lookup_connection_value;
extern __typeof__(MHD_lookup_connection_value_n) floe__MHD_lookup_connection_value_n;
extern __typeof__(MHD_get_daemon_info) floe__MHD_get_daemon_info;
extern __typeof__(MHD_get_connection_info) floe__MHD_get_connection_info;
extern __typeof__(MHD_destroy_response) floe__MHD_destroy_response;
extern __typeof__(MHD_create_response_from_buffer) floe__MHD_create_response_from_buffer;
extern __typeof__(MHD_create_response_from_buffer_with_free_callback)
    floe__MHD_create_response_from_buffer_with_free_callback;
extern __typeof__(MHD_add_response_header) floe__MHD_add_response_header;

#define MHD_start_daemon floe__MHD_start_daemon
#define MHD_stop_daemon floe__MHD_stop_daemon
#define MHD_quiesce_daemon floe__MHD_quiesce_daemon
#define MHD_queue_response floe__MHD_queue_response
#define MHD_lookup_connection_value floe__MHD_lookup_connection_value
#define MHD_lookup_connection_value_n floe__MHD_lookup_connection_value_n
#define MHD_get_daemon_info floe__MHD_get_daemon_info
#define MHD_get_connection_info floe__MHD_get_connection_info
#define MHD_destroy_response floe__MHD_destroy_response
#define MHD_create_response_from_buffer floe__MHD_create_response_from_buffer
#define MHD_create_response_from_buffer_with_free_callback                                         \
    floe__MHD_create_response_from_buffer_with_free_callback
#define MHD_add_response_header floe__MHD_add_response_header

#endif
