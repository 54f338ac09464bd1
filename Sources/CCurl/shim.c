/* CURLOPT_PROTOCOLS is deprecated since 7.85.0 but is the only way to
   restrict protocols on an older libcurl (ac_allow_http_only). */
#define CURL_DISABLE_DEPRECATION 1
#include "CCurl.h"

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
