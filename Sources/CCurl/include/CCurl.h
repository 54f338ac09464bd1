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
   curl_easy_reset. `sockets` must outlive curl_easy_cleanup. */
void ac_track_sockets(CURL *handle, ac_sockets *sockets);

/* Sends the ACK of what each socket has received now and leaves
   delayed-ACK mode (Linux TCP_QUICKACK, tcp(7)); a no-op elsewhere. */
void ac_quickack(ac_sockets *sockets);

/* Locks for a share handle (curl_share_init): one mutex per kind of
   shared data, so threads that touch the TLS session cache do not wait
   for those touching the DNS cache. libcurl calls the lock and unlock
   functions ac_share_setopt_locking installs; `locks` must outlive the
   share (free it only after curl_share_cleanup returned CURLSHE_OK). */
typedef struct ac_share_locks ac_share_locks;
ac_share_locks *ac_share_locks_new(void);
void ac_share_locks_free(ac_share_locks *locks);

/* Sets CURLSHOPT_LOCKFUNC, CURLSHOPT_UNLOCKFUNC and CURLSHOPT_USERDATA;
   returns the first result that is not CURLSHE_OK. */
CURLSHcode ac_share_setopt_locking(CURLSH *share, ac_share_locks *locks);
/* CURLSHOPT_SHARE or CURLSHOPT_UNSHARE of one kind of data. */
CURLSHcode ac_share_setopt_data(CURLSH *share, CURLSHoption option, curl_lock_data data);

#endif
