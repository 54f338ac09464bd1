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

void ac_track_sockets(CURL *handle, ac_sockets *sockets) {
    curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, ac_sockopt);
    curl_easy_setopt(handle, CURLOPT_SOCKOPTDATA, sockets);
    curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, ac_closesocket);
    curl_easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, sockets);
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

struct ac_share_locks {
    pthread_mutex_t mutex[CURL_LOCK_DATA_LAST];
};

ac_share_locks *ac_share_locks_new(void) {
    ac_share_locks *locks = malloc(sizeof *locks);
    if (!locks) return NULL;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) {
        if (pthread_mutex_init(&locks->mutex[i], NULL) != 0) {
            while (--i >= 0) pthread_mutex_destroy(&locks->mutex[i]);
            free(locks);
            return NULL;
        }
    }
    return locks;
}

void ac_share_locks_free(ac_share_locks *locks) {
    if (!locks) return;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&locks->mutex[i]);
    free(locks);
}

/* libcurl asks for CURL_LOCK_DATA_SHARE (the share's own bookkeeping) as
   well as for the kinds shared; a plain mutex serves shared and single
   access alike. */
static void ac_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *context) {
    (void)handle; (void)access;
    ac_share_locks *locks = context;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&locks->mutex[data]);
}

static void ac_share_unlock(CURL *handle, curl_lock_data data, void *context) {
    (void)handle;
    ac_share_locks *locks = context;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&locks->mutex[data]);
}

CURLSHcode ac_share_setopt_locking(CURLSH *share, ac_share_locks *locks) {
    CURLSHcode code = curl_share_setopt(share, CURLSHOPT_LOCKFUNC, ac_share_lock);
    if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, ac_share_unlock);
    if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_USERDATA, (void *)locks);
    return code;
}

CURLSHcode ac_share_setopt_data(CURLSH *share, CURLSHoption option, curl_lock_data data) {
    return curl_share_setopt(share, option, data);
}
