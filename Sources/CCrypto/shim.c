// The libcrypto side of CCrypto.h. Each function frees what it allocates on
// every path and clears libcrypto's per-thread error queue before it returns
// (finish), so nothing is printed, nothing leaks and no later call sees an
// old error. Private values go through BN_secure_new and are cleared when
// freed.
#include "CCrypto.h"

#include <limits.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

/* A valid pointer for empty inputs: libcrypto may refuse NULL even with length 0. */
static const unsigned char empty_input[1] = {0};

static acc_status finish(acc_status status) {
    ERR_clear_error();
    return status;
}

static const char *curve_name(acc_curve curve) {
    switch (curve) {
    case ACC_CURVE_P256: return "P-256";
    case ACC_CURVE_P384: return "P-384";
    case ACC_CURVE_P521: return "P-521";
    default: return NULL;
    }
}

/* The size of a coordinate, of d, and of each half of a raw ECDSA
   signature (RFC 7518 §3.4, §6.2.1.2). */
static size_t curve_size(acc_curve curve) {
    switch (curve) {
    case ACC_CURVE_P256: return 32;
    case ACC_CURVE_P384: return 48;
    case ACC_CURVE_P521: return 66;
    default: return 0;
    }
}

static const EVP_MD *digest(acc_hash hash) {
    switch (hash) {
    case ACC_SHA256: return EVP_sha256();
    case ACC_SHA384: return EVP_sha384();
    case ACC_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

static const char *digest_name(acc_hash hash) {
    switch (hash) {
    case ACC_SHA256: return "SHA256";
    case ACC_SHA384: return "SHA384";
    case ACC_SHA512: return "SHA512";
    default: return NULL;
    }
}

static acc_curve curve_of(const EVP_PKEY *key) {
    char name[80];
    size_t length = 0;
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC
        || EVP_PKEY_get_group_name(key, name, sizeof name, &length) != 1) {
        return ACC_CURVE_NONE;
    }
    int nid = OBJ_sn2nid(name);
    if (nid == NID_undef) nid = EC_curve_nist2nid(name);
    switch (nid) {
    case NID_X9_62_prime256v1: return ACC_CURVE_P256;
    case NID_secp384r1: return ACC_CURVE_P384;
    case NID_secp521r1: return ACC_CURVE_P521;
    default: return ACC_CURVE_NONE;
    }
}

/* ---- keys from parameters ---------------------------------------------- */

/* Builds the key from `builder`'s parameters (OSSL_PARAM_BLD, the
   OpenSSL 3.0 way to make a key from its numbers). */
static acc_status key_from_builder(const char *type, int selection, OSSL_PARAM_BLD *builder, EVP_PKEY **out) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(builder);
    EVP_PKEY_CTX *context = params ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    acc_status status = ACC_FAILED;
    *out = NULL;
    if (context && EVP_PKEY_fromdata_init(context) == 1) {
        status = EVP_PKEY_fromdata(context, out, selection, params) == 1 ? ACC_OK : ACC_BAD_KEY;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    return status;
}

/* libcrypto's own checks of a key just built: the point is on the curve
   and in the right subgroup (public); d·G is that point (pair). */
static acc_status check_ec_key(EVP_PKEY *key, int private) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = context && EVP_PKEY_public_check(context) == 1
        && (!private || EVP_PKEY_pairwise_check(context) == 1);
    EVP_PKEY_CTX_free(context);
    return ok ? ACC_OK : ACC_BAD_KEY;
}

/* Leading zero bytes are not part of an unsigned big-endian value. */
static void strip_zeros(const uint8_t **bytes, size_t *length) {
    while (*length > 0 && (*bytes)[0] == 0) {
        (*bytes)++;
        (*length)--;
    }
}

static size_t bit_length(const uint8_t *bytes, size_t length) {
    if (length == 0) return 0;
    size_t bits = (length - 1) * 8;
    for (uint8_t top = bytes[0]; top != 0; top >>= 1) bits++;
    return bits;
}

static const char *const rsa_names[8] = {
    OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

acc_status acc_rsa_key(const uint8_t *params, const size_t *lengths, size_t count, acc_key **out) {
    if (!out) return ACC_BAD_INPUT;
    *out = NULL;
    if (!params || !lengths || (count != 2 && count != 3 && count != 8)) return ACC_BAD_INPUT;

    const uint8_t *values[8];
    size_t sizes[8];
    size_t offset = 0;
    for (size_t i = 0; i < count; i++) {
        if (lengths[i] > SIZE_MAX - offset) return ACC_BAD_INPUT;
        values[i] = params + offset;
        sizes[i] = lengths[i];
        offset += lengths[i];
        strip_zeros(&values[i], &sizes[i]);
        if (sizes[i] == 0 || sizes[i] > INT_MAX) return ACC_BAD_KEY;
    }
    /* The modulus is odd and within libcrypto's limit; the exponent odd,
       at least 3 and short (a huge e only makes verification slow). */
    size_t bits = bit_length(values[0], sizes[0]);
    if (bits > ACC_MAX_RSA_BITS || (values[0][sizes[0] - 1] & 1) == 0) return ACC_BAD_KEY;
    if (sizes[1] > ACC_MAX_RSA_EXPONENT_BYTES || (values[1][sizes[1] - 1] & 1) == 0
        || (sizes[1] == 1 && values[1][0] < 3)) {
        return ACC_BAD_KEY;
    }

    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *numbers[8] = {NULL};
    acc_status status = builder ? ACC_OK : ACC_FAILED;
    for (size_t i = 0; i < count && status == ACC_OK; i++) {
        /* n and e are public; the rest is the private key. */
        numbers[i] = i < 2 ? BN_new() : BN_secure_new();
        if (!numbers[i] || !BN_bin2bn(values[i], (int)sizes[i], numbers[i])
            || OSSL_PARAM_BLD_push_BN(builder, rsa_names[i], numbers[i]) != 1) {
            status = ACC_FAILED;
        }
    }
    if (status == ACC_OK) {
        status = key_from_builder("RSA", count == 2 ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR, builder, out);
    }
    for (size_t i = 0; i < count; i++) BN_clear_free(numbers[i]);
    OSSL_PARAM_BLD_free(builder);
    return finish(status);
}

acc_status acc_ec_key(acc_curve curve, const uint8_t *x, size_t x_len, const uint8_t *y, size_t y_len,
                      const uint8_t *d, size_t d_len, acc_key **out) {
    if (!out) return ACC_BAD_INPUT;
    *out = NULL;
    size_t size = curve_size(curve);
    if (size == 0) return ACC_UNSUPPORTED;
    if (!x || !y || x_len != size || y_len != size || (d_len != 0 && (!d || d_len != size))) return ACC_BAD_KEY;

    /* The public key as an uncompressed point: 0x04 || x || y (SEC 1 §2.3.3). */
    unsigned char point[1 + 2 * 66];
    point[0] = 0x04;
    memcpy(point + 1, x, size);
    memcpy(point + 1 + size, y, size);

    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *secret = NULL;
    acc_status status = ACC_FAILED;
    if (builder
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, curve_name(curve), 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * size) == 1) {
        status = ACC_OK;
        if (d_len != 0) {
            secret = BN_secure_new();
            if (!secret || !BN_bin2bn(d, (int)d_len, secret)
                || OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, secret) != 1) {
                status = ACC_FAILED;
            }
        }
    }
    if (status == ACC_OK) {
        status = key_from_builder("EC", d_len ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, builder, out);
    }
    if (status == ACC_OK) {
        status = check_ec_key(*out, d_len != 0);
    }
    if (status != ACC_OK) {
        EVP_PKEY_free(*out);
        *out = NULL;
    }
    BN_clear_free(secret);
    OSSL_PARAM_BLD_free(builder);
    return finish(status);
}

acc_status acc_ed25519_key(const uint8_t *x, size_t x_len, const uint8_t *d, size_t d_len, acc_key **out) {
    if (!out) return ACC_BAD_INPUT;
    *out = NULL;
    if (!x || x_len != 32 || (d_len != 0 && (!d || d_len != 32))) return ACC_BAD_KEY;
    EVP_PKEY *key = d_len ? EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, d, d_len)
                          : EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, x, x_len);
    if (!key) return finish(ACC_BAD_KEY);
    if (d_len) {
        /* The private key determines the public one; a JWK whose x is
           another key's is refused rather than signing under a key the
           verifier will not have. */
        unsigned char derived[32];
        size_t length = sizeof derived;
        if (EVP_PKEY_get_raw_public_key(key, derived, &length) != 1 || length != 32
            || memcmp(derived, x, 32) != 0) {
            EVP_PKEY_free(key);
            return finish(ACC_BAD_KEY);
        }
    }
    *out = key;
    return finish(ACC_OK);
}

/* ---- keys from PEM ------------------------------------------------------ */

/* libcrypto asks for a passphrase only for an encrypted key. The answer is
   always "none": authcode never prompts (its stdin may be a token pipe). */
static int refuse_passphrase(char *buffer, int size, int writing, void *asked) {
    (void)buffer;
    (void)size;
    (void)writing;
    *(int *)asked = 1;
    return -1;
}

static int supported(EVP_PKEY *key) {
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: return EVP_PKEY_get_bits(key) <= ACC_MAX_RSA_BITS;
    case EVP_PKEY_EC: return curve_of(key) != ACC_CURVE_NONE;
    case EVP_PKEY_ED25519: return 1;
    default: return 0;
    }
}

acc_status acc_pem_private_key(const uint8_t *pem, size_t pem_len, acc_key **out) {
    if (!out) return ACC_BAD_INPUT;
    *out = NULL;
    if (!pem || pem_len == 0 || pem_len > INT_MAX) return ACC_BAD_INPUT;
    BIO *input = BIO_new_mem_buf(pem, (int)pem_len);
    if (!input) return finish(ACC_FAILED);
    int asked = 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(input, NULL, refuse_passphrase, &asked);
    BIO_free(input);
    if (!key) return finish(asked ? ACC_ENCRYPTED : ACC_BAD_KEY);
    if (!supported(key)) {
        EVP_PKEY_free(key);
        return finish(ACC_UNSUPPORTED);
    }
    *out = key;
    return finish(ACC_OK);
}

acc_status acc_ec_generate(acc_curve curve, acc_key **out) {
    if (!out) return ACC_BAD_INPUT;
    *out = NULL;
    if (!curve_name(curve)) return ACC_UNSUPPORTED;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    int ok = context && EVP_PKEY_keygen_init(context) == 1
        && EVP_PKEY_CTX_set_group_name(context, curve_name(curve)) == 1
        && EVP_PKEY_generate(context, out) == 1;
    EVP_PKEY_CTX_free(context);
    if (!ok) {
        EVP_PKEY_free(*out);
        *out = NULL;
    }
    return finish(ok ? ACC_OK : ACC_FAILED);
}

/* ---- what a key is ------------------------------------------------------ */

acc_status acc_key_info(acc_key *key, acc_key_type *type, acc_curve *curve, int *bits) {
    if (!key || !type || !curve || !bits) return ACC_BAD_INPUT;
    *type = ACC_KEY_NONE;
    *curve = ACC_CURVE_NONE;
    *bits = EVP_PKEY_get_bits(key);
    if (!supported(key)) return finish(ACC_UNSUPPORTED);
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: *type = ACC_KEY_RSA; break;
    case EVP_PKEY_EC: *type = ACC_KEY_EC; *curve = curve_of(key); break;
    default: *type = ACC_KEY_ED25519; break;
    }
    return finish(ACC_OK);
}

/* Writes two big numbers end to end: the first at its minimal length (or
   `width` bytes, zero-padded, when width is not 0), then the second. */
static acc_status write_pair(const BIGNUM *first, const BIGNUM *second, size_t width, uint8_t *out, size_t cap,
                             size_t *first_len, size_t *second_len) {
    size_t a = width ? width : (size_t)BN_num_bytes(first);
    size_t b = width ? width : (size_t)BN_num_bytes(second);
    *first_len = a;
    *second_len = b;
    if (a + b > cap) return ACC_BUFFER_TOO_SMALL;
    if (BN_bn2binpad(first, out, (int)a) != (int)a || BN_bn2binpad(second, out + a, (int)b) != (int)b) {
        return ACC_FAILED;
    }
    return ACC_OK;
}

acc_status acc_key_public(acc_key *key, uint8_t *out, size_t cap, size_t *first_len, size_t *second_len) {
    if (!key || !out || !first_len || !second_len) return ACC_BAD_INPUT;
    *first_len = 0;
    *second_len = 0;
    if (!supported(key)) return finish(ACC_UNSUPPORTED);
    BIGNUM *first = NULL, *second = NULL;
    acc_status status = ACC_FAILED;
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA:
        if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &first) == 1
            && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &second) == 1) {
            status = write_pair(first, second, 0, out, cap, first_len, second_len);
        }
        break;
    case EVP_PKEY_EC:
        if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, &first) == 1
            && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, &second) == 1) {
            status = write_pair(first, second, curve_size(curve_of(key)), out, cap, first_len, second_len);
        }
        break;
    default: {
        size_t length = 0;
        if (EVP_PKEY_get_raw_public_key(key, NULL, &length) == 1) {
            *first_len = length;
            if (length > cap) {
                status = ACC_BUFFER_TOO_SMALL;
            } else if (EVP_PKEY_get_raw_public_key(key, out, &length) == 1) {
                *first_len = length;
                status = ACC_OK;
            }
        }
        break;
    }
    }
    BN_free(first);
    BN_free(second);
    return finish(status);
}

acc_status acc_ec_private(acc_key *key, uint8_t *d, size_t *d_len) {
    if (!key || !d || !d_len) return ACC_BAD_INPUT;
    size_t width = curve_size(curve_of(key));
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC || width == 0) return finish(ACC_BAD_KEY);
    if (*d_len < width) return ACC_BUFFER_TOO_SMALL;
    BIGNUM *secret = NULL;
    /* A public key has no OSSL_PKEY_PARAM_PRIV_KEY: the call fails. */
    if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &secret) != 1) return finish(ACC_BAD_KEY);
    int written = BN_bn2binpad(secret, d, (int)width);
    BN_clear_free(secret);
    if (written != (int)width) {
        OPENSSL_cleanse(d, *d_len);
        return finish(ACC_FAILED);
    }
    *d_len = width;
    return finish(ACC_OK);
}

/* ---- signatures --------------------------------------------------------- */

/* Starts a one-shot sign or verify of `scheme` with `key`, refusing a key
   of another type (an RSA key is never used for ECDSA, RFC 8725 §3.1). */
static acc_status start(EVP_MD_CTX *context, EVP_PKEY *key, acc_scheme scheme, acc_hash hash, int signing) {
    int id = EVP_PKEY_get_base_id(key);
    switch (scheme) {
    case ACC_RSA_PKCS1:
    case ACC_RSA_PSS:
        if (id != EVP_PKEY_RSA) return ACC_BAD_KEY;
        break;
    case ACC_ECDSA:
    case ACC_ECDSA_DER:
        if (curve_of(key) == ACC_CURVE_NONE) return ACC_BAD_KEY;
        break;
    case ACC_EDDSA:
        if (id != EVP_PKEY_ED25519) return ACC_BAD_KEY;
        break;
    default:
        return ACC_BAD_INPUT;
    }
    /* Ed25519 hashes internally: no digest is given (RFC 8032 §5.1.6). */
    const EVP_MD *md = scheme == ACC_EDDSA ? NULL : digest(hash);
    if (scheme != ACC_EDDSA && !md) return ACC_BAD_INPUT;
    EVP_PKEY_CTX *pkey_context = NULL; /* owned by `context` */
    int ok = signing ? EVP_DigestSignInit(context, &pkey_context, md, NULL, key)
                     : EVP_DigestVerifyInit(context, &pkey_context, md, NULL, key);
    if (ok != 1) return ACC_FAILED;
    if (scheme == ACC_RSA_PKCS1) {
        return EVP_PKEY_CTX_set_rsa_padding(pkey_context, RSA_PKCS1_PADDING) == 1 ? ACC_OK : ACC_FAILED;
    }
    if (scheme == ACC_RSA_PSS) {
        /* RFC 7518 §3.5: MGF1 with the same hash, salt as long as the hash.
           On verification RSA_PSS_SALTLEN_DIGEST also refuses any other
           salt length. */
        ok = EVP_PKEY_CTX_set_rsa_padding(pkey_context, RSA_PKCS1_PSS_PADDING) == 1
            && EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_context, RSA_PSS_SALTLEN_DIGEST) == 1
            && EVP_PKEY_CTX_set_rsa_mgf1_md(pkey_context, md) == 1;
        return ok ? ACC_OK : ACC_FAILED;
    }
    return ACC_OK;
}

/* libcrypto's ECDSA signature (DER, SEQUENCE { r, s }) → JOSE's raw R||S,
   each zero-padded to the curve's size (RFC 7518 §3.4). */
static acc_status der_to_raw(const unsigned char *der, size_t der_len, size_t width, uint8_t *out, size_t *out_len) {
    if (*out_len < 2 * width) return ACC_BUFFER_TOO_SMALL;
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, (long)der_len);
    if (!signature) return ACC_FAILED;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(signature, &r, &s);
    int ok = BN_bn2binpad(r, out, (int)width) == (int)width
        && BN_bn2binpad(s, out + width, (int)width) == (int)width;
    ECDSA_SIG_free(signature);
    if (!ok) return ACC_FAILED;
    *out_len = 2 * width;
    return ACC_OK;
}

/* JOSE's raw R||S → DER for libcrypto. Anything but exactly twice the
   curve's size is not a signature. */
static acc_status raw_to_der(const uint8_t *raw, size_t raw_len, size_t width, unsigned char **der, size_t *der_len) {
    if (width == 0 || raw_len != 2 * width) return ACC_BAD_SIGNATURE;
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(raw, (int)width, NULL);
    BIGNUM *s = BN_bin2bn(raw + width, (int)width, NULL);
    if (!signature || !r || !s || ECDSA_SIG_set0(signature, r, s) != 1) {
        ECDSA_SIG_free(signature);
        BN_free(r);
        BN_free(s);
        return ACC_FAILED;
    }
    /* r and s now belong to `signature`. */
    *der = NULL;
    int length = i2d_ECDSA_SIG(signature, der);
    ECDSA_SIG_free(signature);
    if (length <= 0) return ACC_FAILED;
    *der_len = (size_t)length;
    return ACC_OK;
}

acc_status acc_sign(acc_key *key, acc_scheme scheme, acc_hash hash, const uint8_t *message, size_t message_len,
                    uint8_t *signature, size_t *signature_len) {
    if (!key || !signature || !signature_len || (!message && message_len)) return ACC_BAD_INPUT;
    if (!message) message = empty_input;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (!context) return finish(ACC_FAILED);
    acc_status status = start(context, key, scheme, hash, 1);
    int capacity = EVP_PKEY_get_size(key);
    unsigned char *made = NULL;
    size_t made_len = capacity > 0 ? (size_t)capacity : 0;
    if (status == ACC_OK && (made_len == 0 || !(made = OPENSSL_malloc(made_len)))) status = ACC_FAILED;
    if (status == ACC_OK && EVP_DigestSign(context, made, &made_len, message, message_len) != 1) status = ACC_FAILED;
    if (status == ACC_OK) {
        if (scheme == ACC_ECDSA) {
            status = der_to_raw(made, made_len, curve_size(curve_of(key)), signature, signature_len);
        } else if (made_len > *signature_len) {
            status = ACC_BUFFER_TOO_SMALL;
        } else {
            memcpy(signature, made, made_len);
            *signature_len = made_len;
        }
    }
    OPENSSL_free(made);
    EVP_MD_CTX_free(context);
    return finish(status);
}

acc_status acc_verify(acc_key *key, acc_scheme scheme, acc_hash hash, const uint8_t *message, size_t message_len,
                      const uint8_t *signature, size_t signature_len) {
    if (!key || (!message && message_len) || (!signature && signature_len)) return ACC_BAD_INPUT;
    if (!message) message = empty_input;
    if (!signature) signature = empty_input;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (!context) return finish(ACC_FAILED);
    acc_status status = start(context, key, scheme, hash, 0);
    unsigned char *der = NULL;
    size_t der_len = 0;
    if (status == ACC_OK) {
        if (scheme == ACC_ECDSA) {
            status = raw_to_der(signature, signature_len, curve_size(curve_of(key)), &der, &der_len);
        } else if ((scheme == ACC_RSA_PKCS1 || scheme == ACC_RSA_PSS)
                   && signature_len != (size_t)EVP_PKEY_get_size(key)) {
            /* RFC 8017 §8.1.2 step 1, §8.2.2 step 1: S is exactly k octets. */
            status = ACC_BAD_SIGNATURE;
        }
    }
    if (status == ACC_OK) {
        const unsigned char *checked = der ? der : signature;
        size_t checked_len = der ? der_len : signature_len;
        status = EVP_DigestVerify(context, checked, checked_len, message, message_len) == 1 ? ACC_OK : ACC_BAD_SIGNATURE;
    }
    OPENSSL_free(der);
    EVP_MD_CTX_free(context);
    return finish(status);
}

/* ---- HMAC --------------------------------------------------------------- */

acc_status acc_hmac(acc_hash hash, const uint8_t *secret, size_t secret_len, const uint8_t *message, size_t message_len,
                    uint8_t *mac, size_t *mac_len) {
    if (!digest_name(hash) || !secret || secret_len == 0 || !mac || !mac_len || (!message && message_len)) {
        return ACC_BAD_INPUT;
    }
    if (!message) message = empty_input;
    size_t length = 0;
    unsigned char *made = EVP_Q_mac(NULL, "HMAC", NULL, digest_name(hash), NULL, secret, secret_len, message,
                                    message_len, mac, *mac_len, &length);
    if (!made) return finish(*mac_len < (size_t)EVP_MD_get_size(digest(hash)) ? ACC_BUFFER_TOO_SMALL : ACC_FAILED);
    *mac_len = length;
    return finish(ACC_OK);
}

acc_status acc_hmac_verify(acc_hash hash, const uint8_t *secret, size_t secret_len, const uint8_t *message,
                           size_t message_len, const uint8_t *mac, size_t mac_len) {
    if (!mac && mac_len) return ACC_BAD_INPUT;
    unsigned char expected[ACC_MAX_HMAC_BYTES];
    size_t expected_len = sizeof expected;
    acc_status status = acc_hmac(hash, secret, secret_len, message, message_len, expected, &expected_len);
    if (status == ACC_OK) {
        /* The length is public (it is the algorithm's); the bytes are compared in constant time. */
        status = mac_len == expected_len && CRYPTO_memcmp(expected, mac, expected_len) == 0 ? ACC_OK : ACC_BAD_SIGNATURE;
    }
    OPENSSL_cleanse(expected, sizeof expected);
    return status;
}

void acc_key_free(acc_key *key) {
    EVP_PKEY_free(key);
}
