/* What libcurl and OpenSSL alone spend per flow, without authcode: a flow
   here is REQUESTS GET requests (default 4) on one connection of a fresh
   easy handle, the handles sharing a TLS session cache and DNS cache as a
   batch's flows do (Sources/CCurl/shim.c, ac_use_batch_share), the CA file
   given as CURLOPT_CAINFO as a libcurl program would. Prints the CPU time
   (user + system) per flow, for comparing https with http against the
   fixture server: the floor under what TLS adds to authcode's CPU per token.

     cc -O2 curl-tls-floor.c -o curl-tls-floor -lcurl
     ./curl-tls-floor URL [CAFILE] [FLOWS] [REQUESTS]

   lifecycle.py builds and runs it when a C compiler is there. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data; (void)context;
    return size * count;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static int check(CURLcode code, const char *what) {
    if (code == CURLE_OK) return 1;
    fprintf(stderr, "curl-tls-floor: %s: %s\n", what, curl_easy_strerror(code));
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: curl-tls-floor URL [CAFILE] [FLOWS] [REQUESTS]\n");
        return 2;
    }
    const char *cafile = argc > 2 && argv[2][0] ? argv[2] : NULL;
    int flows = argc > 3 ? atoi(argv[3]) : 300;
    int requests = argc > 4 ? atoi(argv[4]) : 4;
    if (flows < 1 || requests < 1) {
        fprintf(stderr, "curl-tls-floor: FLOWS and REQUESTS must be at least 1\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1;
    CURLSH *share = curl_share_init();
    if (!share || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK ||
        curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK) return 1;
    double start = cpu_seconds();
    for (int flow = 0; flow < flows; flow++) {
        CURL *handle = curl_easy_init();
        if (!handle || !check(curl_easy_setopt(handle, CURLOPT_SHARE, share), "CURLOPT_SHARE")) return 1;
        for (int request = 0; request < requests; request++) {
            curl_easy_reset(handle);
            if (!check(curl_easy_setopt(handle, CURLOPT_URL, argv[1]), "CURLOPT_URL") ||
                !check(curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard), "CURLOPT_WRITEFUNCTION") ||
                (cafile && !check(curl_easy_setopt(handle, CURLOPT_CAINFO, cafile), "CURLOPT_CAINFO")) ||
                !check(curl_easy_perform(handle), "request")) return 1;
        }
        curl_easy_cleanup(handle);
    }
    printf("%.3f\n", (cpu_seconds() - start) / flows * 1000);
    curl_share_cleanup(share);
    return 0;
}
