// Non-variadic shims over libcurl: Swift cannot call the variadic
// curl_easy_setopt / curl_easy_getinfo / curl_share_setopt directly, so each
// argument type gets its own small wrapper. Nothing here holds state but
// the share locks, which their owner allocates and frees.
#ifndef AUTHCODE_CCURL_H
#define AUTHCODE_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

typedef size_t (*ac_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode ac_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ac_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ac_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ac_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);
CURLcode ac_setopt_callback(CURL *handle, CURLoption option, ac_data_callback callback);
CURLcode ac_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

CURLcode ac_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ac_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ac_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/* The sockets of one easy handle's connections, so each response can be
   ACKed at once (ac_quickack). libcurl reports no socket while a transfer
   runs (CURLINFO_ACTIVESOCKET is set only after it), so they are collected
   as libcurl opens and closes them. */
#define AC_MAX_SOCKETS 16
typedef struct ac_sockets {
    curl_socket_t fds[AC_MAX_SOCKETS];
    int count;
} ac_sockets;

/* Sets CURLOPT_SOCKOPTFUNCTION and CURLOPT_CLOSESOCKETFUNCTION so that
   `sockets` follows the handle's connections; call after every
   curl_easy_reset. `sockets` must outlive curl_easy_cleanup. Returns the
   first option libcurl refused, else CURLE_OK. */
CURLcode ac_track_sockets(CURL *handle, ac_sockets *sockets);

/* Allows http and https only: CURLOPT_PROTOCOLS_STR (libcurl 7.85.0 and
   later), else the CURLOPT_PROTOCOLS bitmask it replaced, for a libcurl
   older than the headers this was built with. Returns libcurl's answer to
   the last option tried. */
CURLcode ac_allow_http_only(CURL *handle);

/* Sends the ACK of what each socket has received now and leaves
   delayed-ACK mode (Linux TCP_QUICKACK, tcp(7)); a no-op elsewhere. */
void ac_quickack(ac_sockets *sockets);

/* For --version: libcurl's version at run time ("7.88.1"), its
   TLS library's ("OpenSSL/3.0.15", NULL without TLS), and the commit this
   binary was built from (the Makefile defines AUTHCODE_COMMIT; "unknown"
   in any other build). */
const char *ac_curl_version(void);
const char *ac_curl_ssl_version(void);
const char *ac_build_commit(void);

/* Points `handle` at the process's batch share (made once, on first use,
   and kept until the process exits, so it outlives every easy handle):
   libcurl's TLS session cache and DNS cache, each behind its own mutex,
   so the flows of a batch resume TLS sessions instead of a full handshake
   per user. Never connections (CURL_LOCK_DATA_CONNECT) and never cookies:
   each flow keeps its own. Returns CURLE_OK, or why it could not. */
CURLcode ac_use_batch_share(CURL *handle);

#endif
