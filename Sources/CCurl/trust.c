/* The process's certificate store and the TLS context hook that uses it
   (ARCHITECTURE.md "TLS trust"; the one place libssl is used, ARCHITECTURE.md "Constraints").

   Why not libcurl's own CURLOPT_CAINFO: libcurl 7.88 builds an SSL_CTX per
   connection and reads the CA file into it each time, so the system bundle
   (~140 certificates, 20-40 ms of CPU) was parsed again for every user of a
   batch. Here a store is built once per process and only looked up.

   Why a verify callback and not SSL_CTX_set1_cert_store: libcurl 7.88 sets
   up its own store after the SSL_CTX callback has run (deferred until the
   server's first bytes come back) and writes into whatever store the
   SSL_CTX holds, so a shared store handed over there would be written by
   every batch thread at once. Instead each
   verification gathers, from the shared store, the certificates the chain
   can end at and hands them to OpenSSL's chain builder as its trusted set
   (X509_STORE_CTX_set0_trusted_stack); the verification parameters (flags,
   depth, purpose) stay those libcurl set on the connection's own store. */
#include "CCurl.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

struct ac_trust {
    X509_STORE *store;
    char *file;
    char *directory;
    struct ac_trust *next;
};

/* Stores are kept until the process exits: one per set of sources, which is
   one for a run (its flows all have the same settings). */
static pthread_mutex_t ac_trust_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ac_trust *ac_trusts;

static int ac_same(const char *a, const char *b) {
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static char *ac_copy(const char *text) {
    if (!text) return NULL;
    size_t length = strlen(text) + 1;
    char *copy = malloc(length);
    if (copy) memcpy(copy, text, length);
    return copy;
}

/* OpenSSL reads a certificate directory variable as a list separated by
   ':' (X509_LOOKUP_hash_dir); every entry must be a directory. */
static int ac_check_directories(const char *list, char *error, size_t size) {
    const char *start = list;
    for (;;) {
        const char *end = strchr(start, ':');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        if (length > 0) {
            char path[4096];
            struct stat info;
            if (length >= sizeof path) {
                snprintf(error, size, "a directory name is too long");
                return 0;
            }
            memcpy(path, start, length);
            path[length] = 0;
            if (stat(path, &info) != 0 || !S_ISDIR(info.st_mode)) {
                snprintf(error, size, "%s is not a directory", path);
                return 0;
            }
        }
        if (!end) return 1;
        start = end + 1;
    }
}

static struct ac_trust *ac_build_trust(const char *file, const char *directory, char *error, size_t size) {
    struct ac_trust *trust = calloc(1, sizeof *trust);
    if (!trust || !(trust->store = X509_STORE_new()) ||
        (file && !(trust->file = ac_copy(file))) || (directory && !(trust->directory = ac_copy(directory)))) {
        snprintf(error, size, "out of memory");
        goto fail;
    }
    /* The file's certificates are parsed here, once; a directory is only
       named: OpenSSL reads <subject hash>.N from it when a chain asks for
       that issuer, and keeps what it read in the store. */
    if (file && X509_STORE_load_file(trust->store, file) != 1) {
        snprintf(error, size, "no CA certificate could be read from %s", file);
        goto fail;
    }
    if (directory && !ac_check_directories(directory, error, size)) goto fail;
    if (directory && X509_STORE_load_path(trust->store, directory) != 1) {
        snprintf(error, size, "the certificate directory %s could not be used", directory);
        goto fail;
    }
    return trust;
fail:
    ERR_clear_error();
    if (trust) {
        X509_STORE_free(trust->store);
        free(trust->file);
        free(trust->directory);
        free(trust);
    }
    return NULL;
}

ac_trust *ac_trust_get(const char *file, const char *directory, char *error, size_t size) {
    if (size > 0) error[0] = 0;
    if (pthread_mutex_lock(&ac_trust_lock) != 0) {
        snprintf(error, size, "the trust store's lock failed");
        return NULL;
    }
    struct ac_trust *trust = ac_trusts;
    while (trust && !(ac_same(trust->file, file) && ac_same(trust->directory, directory))) trust = trust->next;
    if (!trust) {
        trust = ac_build_trust(file, directory, error, size);
        if (trust) {
            trust->next = ac_trusts;
            ac_trusts = trust;
        }
    }
    pthread_mutex_unlock(&ac_trust_lock);
    return trust;
}

/* A name worth looking up, once: the chain builder may ask the trusted set
   for any of them (an issuer, or a subject when a certificate of the chain
   is itself trusted). A chain longer than the list finds fewer anchors and
   fails verification; it never passes it. */
#define AC_MAX_NAMES 32
typedef struct {
    const X509_NAME *names[AC_MAX_NAMES];
    int count;
} ac_names;

static void ac_add_name(ac_names *list, const X509_NAME *name) {
    if (!name || list->count == AC_MAX_NAMES) return;
    for (int i = 0; i < list->count; i++) {
        if (X509_NAME_cmp(list->names[i], name) == 0) return;
    }
    list->names[list->count++] = name;
}

static int ac_contains(STACK_OF(X509) *certificates, X509 *certificate) {
    for (int i = 0; i < sk_X509_num(certificates); i++) {
        if (X509_cmp(sk_X509_value(certificates, i), certificate) == 0) return 1;
    }
    return 0;
}

/* The trusted certificates a chain from `leaf` (with the peer's other
   certificates, `untrusted`) can use: those of the store whose subject is
   a subject or issuer of the chain, then the issuers of those, and so on.
   X509_STORE_CTX_get1_certs takes the store's lock and runs the directory
   lookup, so this is safe from any thread. NULL when memory runs out. */
static STACK_OF(X509) *ac_trust_anchors(struct ac_trust *trust, X509 *leaf, STACK_OF(X509) *untrusted) {
    STACK_OF(X509) *anchors = sk_X509_new_null();
    X509_STORE_CTX *lookup = X509_STORE_CTX_new();
    ac_names names = { .count = 0 };
    if (!anchors || !lookup || X509_STORE_CTX_init(lookup, trust->store, NULL, NULL) != 1) goto fail;
    if (leaf) {
        ac_add_name(&names, X509_get_subject_name(leaf));
        ac_add_name(&names, X509_get_issuer_name(leaf));
    }
    for (int i = 0; i < sk_X509_num(untrusted); i++) {
        ac_add_name(&names, X509_get_subject_name(sk_X509_value(untrusted, i)));
        ac_add_name(&names, X509_get_issuer_name(sk_X509_value(untrusted, i)));
    }
    for (int i = 0; i < names.count; i++) {
        /* NULL both for no match and for a failure (OpenSSL 3.0): either
           way no anchor, which can only fail a verification. */
        STACK_OF(X509) *found = X509_STORE_CTX_get1_certs(lookup, names.names[i]);
        if (!found) continue;
        X509 *certificate;
        while ((certificate = sk_X509_shift(found)) != NULL) {
            if (ac_contains(anchors, certificate)) {
                X509_free(certificate);
            } else if (!sk_X509_push(anchors, certificate)) {
                X509_free(certificate);
                sk_X509_pop_free(found, X509_free);
                goto fail;
            } else {
                ac_add_name(&names, X509_get_issuer_name(certificate));
            }
        }
        sk_X509_free(found);
    }
    X509_STORE_CTX_free(lookup);
    ERR_clear_error();  /* a name the directory lacks is no error */
    return anchors;
fail:
    X509_STORE_CTX_free(lookup);
    sk_X509_pop_free(anchors, X509_free);
    ERR_clear_error();
    return NULL;
}

/* SSL_CTX_set_cert_verify_callback: OpenSSL's own chain verification
   (X509_verify_cert) with the store's anchors as the trusted set; the
   result and its error (say "unable to get local issuer certificate") are
   what libcurl reads and reports, as without the callback. */
static int ac_verify_chain(X509_STORE_CTX *context, void *argument) {
    STACK_OF(X509) *anchors = ac_trust_anchors(argument, X509_STORE_CTX_get0_cert(context),
                                               X509_STORE_CTX_get0_untrusted(context));
    if (!anchors) {
        X509_STORE_CTX_set_error(context, X509_V_ERR_OUT_OF_MEM);
        return 0;
    }
    X509_STORE_CTX_set0_trusted_stack(context, anchors);
    int verified = X509_verify_cert(context);
    /* The context outlives this call (libssl reads its chain next): it must
       not keep a pointer to the freed set. */
    X509_STORE_CTX_set0_trusted_stack(context, NULL);
    sk_X509_pop_free(anchors, X509_free);
    return verified == 1;
}

/* Every TLS record read: a TLS 1.3 server sends its session tickets in
   writes of their own after the handshake, and one without TCP_NODELAY
   holds the answer back (Nagle) until they are ACKed, which a delayed ACK
   puts off by up to 40 ms. ACKing at each record (ac_quickack, shim.c)
   sends it at once. SSL3_RT_HEADER comes once per record, before its
   content. */
static void ac_tls_record(int write_p, int version, int content_type, const void *buffer, size_t length,
                          SSL *ssl, void *argument) {
    (void)version; (void)buffer; (void)length; (void)ssl;
    if (!write_p && content_type == SSL3_RT_HEADER) ac_quickack(argument);
}

/* CURLOPT_SSL_CTX_FUNCTION: called for each new connection's SSL_CTX,
   before its handshake. */
static CURLcode ac_tls_context(CURL *handle, void *ssl_context, void *argument) {
    (void)handle;
    ac_tls *tls = argument;
    SSL_CTX *context = ssl_context;
    SSL_CTX_set_msg_callback(context, ac_tls_record);
    SSL_CTX_set_msg_callback_arg(context, tls->sockets);
    if (tls->trust) SSL_CTX_set_cert_verify_callback(context, ac_verify_chain, tls->trust);
    return CURLE_OK;
}

CURLcode ac_use_tls_context(CURL *handle, ac_tls *tls) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, ac_tls_context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, tls);
    /* With the store, libcurl loads nothing of its own: no CA file, no CA
       path (a NULL string option switches the built-in default off). */
    if (code == CURLE_OK && tls->trust) code = curl_easy_setopt(handle, CURLOPT_CAINFO, (char *)NULL);
    if (code == CURLE_OK && tls->trust) code = curl_easy_setopt(handle, CURLOPT_CAPATH, (char *)NULL);
    return code;
}

/* The SSL_CTX libcurl hands over is an OpenSSL one only when libcurl's TLS
   library is OpenSSL, and ours to use only when it is the very OpenSSL this
   was built against (the same version loaded once): "OpenSSL/3.0.15" from
   libcurl against "OpenSSL 3.0.15 ..." from libssl. Otherwise authcode
   leaves trust to libcurl's CA options. */
int ac_tls_context_usable(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    const char *curl_tls = info ? info->ssl_version : NULL;
    const char *ours = OpenSSL_version(OPENSSL_VERSION);
    if (!curl_tls || !ours || strncmp(curl_tls, "OpenSSL/", 8) != 0 || strncmp(ours, "OpenSSL ", 8) != 0) return 0;
    size_t length = strcspn(ours + 8, " ");
    return length > 0 && strlen(curl_tls + 8) == length && strncmp(curl_tls + 8, ours + 8, length) == 0;
}

/* A directory in OpenSSL's hashed layout holds <8 hex digits>.<digits>
   names (c_rehash, `openssl rehash`, Debian's update-ca-certificates). */
static int ac_is_hashed_directory(const char *path) {
    DIR *directory = path && path[0] ? opendir(path) : NULL;
    if (!directory) return 0;
    int hashed = 0;
    struct dirent *entry;
    while (!hashed && (entry = readdir(directory)) != NULL) {
        const char *name = entry->d_name;
        int digits = 0;
        while (digits < 8 && ((name[digits] >= '0' && name[digits] <= '9') || (name[digits] >= 'a' && name[digits] <= 'f'))) digits++;
        if (digits == 8 && name[8] == '.' && name[9] >= '0' && name[9] <= '9') {
            const char *rest = name + 10;
            while (*rest >= '0' && *rest <= '9') rest++;
            hashed = *rest == 0;
        }
    }
    closedir(directory);
    return hashed;
}

static const char *ac_system_directory;
static pthread_once_t ac_system_directory_once = PTHREAD_ONCE_INIT;

static void ac_find_system_directory(void) {
    const char *candidates[2] = { NULL, X509_get_default_cert_dir() };
#if LIBCURL_VERSION_NUM >= 0x074600
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    if (info && info->age >= CURLVERSION_NINTH) candidates[0] = info->capath;
#endif
    for (int i = 0; i < 2; i++) {
        if (ac_is_hashed_directory(candidates[i])) {
            ac_system_directory = candidates[i];
            return;
        }
    }
}

const char *ac_system_ca_directory(void) {
    pthread_once(&ac_system_directory_once, ac_find_system_directory);
    return ac_system_directory;
}

const char *ac_builtin_ca_file(void) {
#if LIBCURL_VERSION_NUM >= 0x074600
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    if (info && info->age >= CURLVERSION_NINTH) return info->cainfo;
#endif
    return NULL;
}
