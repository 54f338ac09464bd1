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

/* The process's certificate stores (Sources/CCurl/trust.c; ARCHITECTURE.md
   "TLS trust"). A store for a CA file and/or a hashed certificate
   directory (either may be NULL, not both) is built on first use, kept
   until the process exits and shared by every flow and thread: the file is
   parsed once, the directory only looked up by subject hash. NULL with a
   one-line reason in `error` when the file holds no certificate or a
   directory is none. */
typedef struct ac_trust ac_trust;
ac_trust *ac_trust_get(const char *file, const char *directory, char *error, size_t size);

/* What one easy handle's TLS connections need from authcode: the sockets to
   ACK each TLS record on (ac_quickack), and the store that verifies the
   server (NULL: libcurl's CA options do, as set). Owned by the transport;
   must outlive the handle. */
typedef struct ac_tls {
    ac_sockets *sockets;
    ac_trust *trust;
} ac_tls;

/* Sets CURLOPT_SSL_CTX_FUNCTION and its data (call after every
   curl_easy_reset); with a store, also switches libcurl's own CA file and
   path off. Only when ac_tls_context_usable(). Returns the first option
   libcurl refused, else CURLE_OK. */
CURLcode ac_use_tls_context(CURL *handle, ac_tls *tls);

/* 1 when libcurl's TLS library is the OpenSSL authcode links (the same
   version), so the SSL_CTX it hands over is one libssl's functions take. */
int ac_tls_context_usable(void);

/* The system's hashed certificate directory (libcurl's built-in CA path,
   else OpenSSL's default directory, the first holding <hash>.N names;
   /etc/ssl/certs on Debian), or NULL; decided once. */
const char *ac_system_ca_directory(void);

/* libcurl's built-in CA bundle file (7.70.0 and later), or NULL. */
const char *ac_builtin_ca_file(void);

#endif
