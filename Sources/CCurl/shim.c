/* CURLOPT_PROTOCOLS is deprecated since 7.85.0 but is the only way to
   restrict protocols on an older libcurl (ac_allow_http_only). */
#define CURL_DISABLE_DEPRECATION 1
#include "CCurl.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__linux__)
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#endif

CURLcode ac_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ac_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ac_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ac_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}
CURLcode ac_setopt_callback(CURL *handle, CURLoption option, ac_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
CURLcode ac_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ac_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ac_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ac_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static int ac_sockopt(void *context, curl_socket_t socket, curlsocktype purpose) {
    ac_sockets *sockets = context;
    if (purpose == CURLSOCKTYPE_IPCXN && sockets->count < AC_MAX_SOCKETS) {
        sockets->fds[sockets->count++] = socket;
    }
    return CURL_SOCKOPT_OK;
}

static int ac_closesocket(void *context, curl_socket_t socket) {
    ac_sockets *sockets = context;
    for (int i = 0; i < sockets->count; i++) {
        if (sockets->fds[i] == socket) {
            sockets->fds[i] = sockets->fds[--sockets->count];
            break;
        }
    }
    return close(socket);
}

CURLcode ac_track_sockets(CURL *handle, ac_sockets *sockets) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, ac_sockopt);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_SOCKOPTDATA, sockets);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, ac_closesocket);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, sockets);
    return code;
}

/* A libcurl older than 7.85.0 answers CURLE_UNKNOWN_OPTION to
   CURLOPT_PROTOCOLS_STR: then the bitmask. Any other refusal is returned,
   never ignored: without the restriction a file:// or other URL could be
   fetched. */
CURLcode ac_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code != CURLE_UNKNOWN_OPTION) return code;
#endif
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
}

/* A server that writes headers and body separately without TCP_NODELAY
   holds the body back (Nagle, RFC 896) until the headers are ACKed, while
   a kept-alive connection is in delayed-ACK mode (RFC 1122 4.2.3.2): up to
   40 ms per response on Linux. TCP_QUICKACK sends the pending ACK at once
   but does not last, so it is set again for every response, on each of
   the handle's few sockets (an idle one only leaves delayed-ACK mode). */
void ac_quickack(ac_sockets *sockets) {
#if defined(__linux__) && defined(TCP_QUICKACK)
    int on = 1;
    for (int i = 0; i < sockets->count; i++) {
        (void)setsockopt(sockets->fds[i], IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
    }
#else
    (void)sockets;
#endif
}

/* The commit rides on this C target because C is where a build can pass a
   string in (-DAUTHCODE_COMMIT=...): Swift's -D defines names, not values. */
#ifndef AUTHCODE_COMMIT
#define AUTHCODE_COMMIT "unknown"
#endif

/* CURLVERSION_NOW asks for the struct layout these headers know; the values
   are those of the libcurl loaded at run time, not of the headers. */
const char *ac_curl_version(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version : NULL;
}

const char *ac_curl_ssl_version(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->ssl_version : NULL;
}

const char *ac_build_commit(void) {
    return AUTHCODE_COMMIT;
}

/* One mutex per kind of data libcurl locks (it also asks for
   CURL_LOCK_DATA_SHARE, the share's own bookkeeping); a plain mutex serves
   shared and single access alike, and threads that touch the TLS session
   cache do not wait for those touching the DNS cache. */
static pthread_mutex_t ac_share_mutex[CURL_LOCK_DATA_LAST];
static CURLSH *ac_batch_share;
static CURLcode ac_batch_share_error = CURLE_OK;
static pthread_once_t ac_batch_share_once = PTHREAD_ONCE_INIT;

static void ac_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *context) {
    (void)handle; (void)access; (void)context;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&ac_share_mutex[data]);
}

static void ac_share_unlock(CURL *handle, curl_lock_data data, void *context) {
    (void)handle; (void)context;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&ac_share_mutex[data]);
}

/* Every pthread and curl_share result is checked: a share that silently
   shared less (or nothing) would only cost speed, but a share without its
   lock functions would be a data race between the batch's threads. On a
   failure what was set up is torn down again, in reverse: the share (no
   handle uses it yet), then the mutexes made so far; the error is kept, so
   every later flow of the batch gets it too. */
static void ac_make_batch_share(void) {
    int mutexes = 0;
    while (mutexes < CURL_LOCK_DATA_LAST && pthread_mutex_init(&ac_share_mutex[mutexes], NULL) == 0) mutexes++;
    CURLSH *share = mutexes == CURL_LOCK_DATA_LAST ? curl_share_init() : NULL;
    CURLSHcode code = share ? curl_share_setopt(share, CURLSHOPT_LOCKFUNC, ac_share_lock) : CURLSHE_NOMEM;
    if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, ac_share_unlock);
    if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    if (code == CURLSHE_OK) {
        ac_batch_share = share;
        return;
    }
    ac_batch_share_error = code == CURLSHE_NOMEM ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT;
    /* A share libcurl will not free may still call the lock functions:
       then its mutexes must stay. */
    if (share && curl_share_cleanup(share) != CURLSHE_OK) return;
    while (mutexes > 0) {
        if (pthread_mutex_destroy(&ac_share_mutex[--mutexes]) != 0) return;
    }
}

CURLcode ac_use_batch_share(CURL *handle) {
    pthread_once(&ac_batch_share_once, ac_make_batch_share);
    if (!ac_batch_share) return ac_batch_share_error == CURLE_OK ? CURLE_FAILED_INIT : ac_batch_share_error;
    return curl_easy_setopt(handle, CURLOPT_SHARE, ac_batch_share);
}
