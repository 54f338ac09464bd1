// Non-variadic shims over the system's libcrypto (OpenSSL 3), for the JOSE
// layer only (Sources/JOSE). Swift cannot call OpenSSL's variadic and
// macro-heavy API well, and every key, context and big number here must be
// freed on every path; so the few operations JOSE needs are C functions that
// take plain byte buffers, return a status code and never print.
//
// The header names no OpenSSL type: a key is an opaque `acc_key` (an
// EVP_PKEY underneath), so importing this module does not import OpenSSL's
// headers into Swift.
#ifndef AUTHCODE_CCRYPTO_H
#define AUTHCODE_CCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* An EVP_PKEY. Created by the acc_*_key functions, freed by acc_key_free.
   Immutable once made, so one key may sign or verify on several threads at
   once (openssl-threads(7)). */
typedef struct evp_pkey_st acc_key;

typedef enum acc_status {
    ACC_OK = 0,
    ACC_BAD_INPUT = 1,        /* a length or parameter out of range */
    ACC_BAD_KEY = 2,          /* libcrypto refused the key material */
    ACC_UNSUPPORTED = 3,      /* a key type or curve JOSE does not use here */
    ACC_BAD_SIGNATURE = 4,    /* the signature or MAC does not verify */
    ACC_ENCRYPTED = 5,        /* an encrypted PEM private key */
    ACC_BUFFER_TOO_SMALL = 6, /* the output buffer cannot hold the result */
    ACC_FAILED = 7            /* libcrypto failed otherwise (memory, ...) */
} acc_status;

typedef enum acc_key_type {
    ACC_KEY_NONE = 0,
    ACC_KEY_RSA = 1,
    ACC_KEY_EC = 2,
    ACC_KEY_ED25519 = 3
} acc_key_type;

/* The NIST curves of RFC 7518 §6.2.1.1. */
typedef enum acc_curve {
    ACC_CURVE_NONE = 0,
    ACC_CURVE_P256 = 1,
    ACC_CURVE_P384 = 2,
    ACC_CURVE_P521 = 3
} acc_curve;

typedef enum acc_hash {
    ACC_SHA256 = 1,
    ACC_SHA384 = 2,
    ACC_SHA512 = 3
} acc_hash;

/* The signature schemes of RFC 7518 §3.3–§3.5 and RFC 8037 §3.1. */
typedef enum acc_scheme {
    ACC_RSA_PKCS1 = 1, /* RSASSA-PKCS1-v1_5 */
    ACC_RSA_PSS = 2,   /* RSASSA-PSS, MGF1 with the same hash, salt = hash length */
    ACC_ECDSA = 3,     /* raw R||S, each the curve's size (RFC 7518 §3.4) */
    ACC_EDDSA = 4,     /* Ed25519, no digest (the hash argument is ignored) */
    ACC_ECDSA_DER = 5  /* ECDSA as X9.62 DER, SEQUENCE { r, s }: what WebAuthn
                          sends (its §6.5.6), not JOSE's R||S */
} acc_scheme;

/* libcrypto's own limit for RSA (OPENSSL_RSA_MAX_MODULUS_BITS), so the
   largest signature any key here makes or checks is 2048 bytes. */
#define ACC_MAX_RSA_BITS 16384
#define ACC_MAX_SIGNATURE_BYTES 2048
/* An RSA public exponent longer than this is refused (libcrypto refuses
   more than 64 bits for moduli above 3072 bits anyway). */
#define ACC_MAX_RSA_EXPONENT_BYTES 8
#define ACC_MAX_HMAC_BYTES 64

/* RSA from unsigned big-endian parameters laid end to end in `params`,
   `lengths[i]` bytes each, in the order of RFC 7518 §6.3: count 2 is a
   public key (n, e); 3 a private key without CRT values (n, e, d); 8 a
   private key with them (n, e, d, p, q, dp, dq, qi). */
acc_status acc_rsa_key(const uint8_t *params, const size_t *lengths, size_t count, acc_key **out);

/* EC from the affine coordinates x and y (each exactly the curve's size),
   and the private scalar d (the same size) or d_len 0 for a public key.
   A point not on the curve is ACC_BAD_KEY; a private key whose d does not
   give (x, y) too. */
acc_status acc_ec_key(acc_curve curve, const uint8_t *x, size_t x_len, const uint8_t *y, size_t y_len,
                      const uint8_t *d, size_t d_len, acc_key **out);

/* Ed25519 from the 32-byte public key x, and the 32-byte private key d or
   d_len 0. With d, x must be d's public key (ACC_BAD_KEY otherwise). */
acc_status acc_ed25519_key(const uint8_t *x, size_t x_len, const uint8_t *d, size_t d_len, acc_key **out);

/* A private key from PEM text: PKCS#8 ("PRIVATE KEY"), PKCS#1 ("RSA PRIVATE
   KEY") or SEC1 ("EC PRIVATE KEY"). Never asks for a passphrase: an
   encrypted key is ACC_ENCRYPTED. A key of another type or curve is
   ACC_UNSUPPORTED. */
acc_status acc_pem_private_key(const uint8_t *pem, size_t pem_len, acc_key **out);

/* A fresh key pair on `curve` (DPoP proofs: RFC 9449 §5 uses P-256). */
acc_status acc_ec_generate(acc_curve curve, acc_key **out);

/* The key's type, its curve (EC only) and its size in bits. */
acc_status acc_key_info(acc_key *key, acc_key_type *type, acc_curve *curve, int *bits);

/* The public parameters, unsigned big-endian, written end to end in `out`:
   RSA n then e (minimal length); EC x then y (each the curve's size);
   Ed25519 x (second_len 0). ACC_BUFFER_TOO_SMALL if `cap` is too small. */
acc_status acc_key_public(acc_key *key, uint8_t *out, size_t cap, size_t *first_len, size_t *second_len);

/* The private scalar d of an EC key, unsigned big-endian, zero-padded to
   the curve's size (RFC 7518 §6.2.2.1): what a key file keeps of a key made
   here (a passkey's, Sources/Walk/WebAuthn). `*d_len` is the capacity of `d`
   on entry and the length written on return. ACC_BAD_KEY for a public key
   or another key type. */
acc_status acc_ec_private(acc_key *key, uint8_t *d, size_t *d_len);

/* Signs `message` (the JWS signing input). `*signature_len` is the capacity
   of `signature` on entry and the signature's length on return. ECDSA
   signatures come back as raw R||S, ACC_ECDSA_DER ones as DER. */
acc_status acc_sign(acc_key *key, acc_scheme scheme, acc_hash hash, const uint8_t *message, size_t message_len,
                    uint8_t *signature, size_t *signature_len);

/* ACC_OK when `signature` is a valid signature of `message` under `key`
   (ACC_ECDSA_DER: a DER signature, as libcrypto reads it);
   ACC_BAD_SIGNATURE when it is not (including a signature of the wrong
   length for the key); another code when the key does not fit the scheme. */
acc_status acc_verify(acc_key *key, acc_scheme scheme, acc_hash hash, const uint8_t *message, size_t message_len,
                      const uint8_t *signature, size_t signature_len);

/* HMAC (RFC 2104) of `message` under `secret` (non-empty); `*mac_len` is
   the capacity on entry (ACC_MAX_HMAC_BYTES is always enough), the length
   on return. */
acc_status acc_hmac(acc_hash hash, const uint8_t *secret, size_t secret_len, const uint8_t *message, size_t message_len,
                    uint8_t *mac, size_t *mac_len);

/* ACC_OK when `mac` is the HMAC of `message`, compared in constant time
   (CRYPTO_memcmp); ACC_BAD_SIGNATURE otherwise. */
acc_status acc_hmac_verify(acc_hash hash, const uint8_t *secret, size_t secret_len, const uint8_t *message,
                           size_t message_len, const uint8_t *mac, size_t mac_len);

void acc_key_free(acc_key *key);

#endif
